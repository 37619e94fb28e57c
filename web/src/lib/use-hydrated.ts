import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while rendering on the server and while hydrating prerendered HTML, true after.
 * Lets a page render exactly what was prerendered first, then client-only values
 * (today's date, the URL's query) without a hydration mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribe, () => true, () => false);
}

import { useSyncExternalStore } from "react";

const noop = () => () => {};

/**
 * False while prerendering and while hydrating, true after: browser-only
 * state (local storage, the ad network) renders only once it cannot cause a
 * hydration mismatch.
 */
export function useMounted(): boolean {
  return useSyncExternalStore(noop, () => true, () => false);
}

import { useSyncExternalStore } from "react";
import { COOKIE_CONSENT_KEY, type CookieConsent } from "../../../../../contract/ads.ts";

/** The cookie banner's answer in local storage (spec §4, §9): "accepted", "declined" or nothing yet. */
const listeners = new Set<() => void>();

export function readConsent(): CookieConsent | null {
  try {
    const value = globalThis.localStorage?.getItem(COOKIE_CONSENT_KEY);
    return value === "accepted" || value === "declined" ? value : null;
  } catch {
    return null; // storage disabled: ask again next time
  }
}

export function saveConsent(value: CookieConsent): void {
  try {
    globalThis.localStorage.setItem(COOKIE_CONSENT_KEY, value);
  } catch (err) {
    console.warn("Could not store the cookie choice", err);
  }
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab's choice applies here too.
  const onStorage = (e: StorageEvent) => e.key === COOKIE_CONSENT_KEY && listener();
  globalThis.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener("storage", onStorage);
  };
}

export function useCookieConsent(): CookieConsent | null {
  return useSyncExternalStore(subscribe, readConsent, () => null);
}

import { useSyncExternalStore } from "react";

/**
 * Ad-blocker detection: a bait element with the class names blockers hide,
 * plus the ad script's own load failure (reported by adsense.ts).
 */
let blocked = false;
const listeners = new Set<() => void>();

export function reportAdBlocked(): void {
  if (blocked) return;
  blocked = true;
  listeners.forEach((l) => l());
}

export function useAdBlocked(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => blocked,
    () => false,
  );
}

const BAIT_CLASSES = "adsbox ad-banner ad-placement textads banner-ads pub_300x250";
export const BAIT_CHECK_DELAY_MS = 300;

/** Adds a bait element, checks whether something hid it, removes it. */
export function checkBait(): Promise<boolean> {
  return new Promise((resolve) => {
    const bait = document.createElement("div");
    bait.className = BAIT_CLASSES;
    bait.setAttribute("aria-hidden", "true");
    bait.style.cssText = "position:absolute;left:-9999px;top:-9999px;width:1px;height:1px;";
    bait.innerHTML = "&nbsp;";
    document.body.appendChild(bait);
    // Blockers apply their cosmetic filters asynchronously.
    setTimeout(() => {
      const style = getComputedStyle(bait);
      const hidden = bait.offsetHeight === 0 || style.display === "none" || style.visibility === "hidden" ||
        !bait.isConnected;
      bait.remove();
      if (hidden) reportAdBlocked();
      resolve(hidden);
    }, BAIT_CHECK_DELAY_MS);
  });
}

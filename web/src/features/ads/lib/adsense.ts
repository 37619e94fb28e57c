/**
 * The AdSense tag (adsbygoogle.js): loaded once per page, never twice, and a
 * failure (network, ad blocker, CSP) is only logged and reported to the
 * ad-blocker notice. Units are pushed 100 ms after they mount (spec §7, §9).
 */
import { readConsent } from "./consent.ts";
import { reportAdBlocked } from "./ad-block.ts";

export const AD_PUSH_DELAY_MS = 100;
const SCRIPT_HOST = "https://pagead2.googlesyndication.com";

type AdQueue = Array<Record<string, unknown>> & { requestNonPersonalizedAds?: 0 | 1 };
declare global {
  var adsbygoogle: AdQueue | undefined;
}

let loading: Promise<boolean> | null = null;

/** Non-personalised ads unless the visitor accepted cookies (declined, or not asked yet). */
function applyConsent(): AdQueue {
  const queue: AdQueue = (globalThis.adsbygoogle ??= [] as AdQueue);
  queue.requestNonPersonalizedAds = readConsent() === "accepted" ? 0 : 1;
  return queue;
}

/** Resolves true once the tag ran, false when it could not load. */
export function loadAdsense(client: string): Promise<boolean> {
  if (loading) return loading;
  applyConsent();
  loading = new Promise((resolve) => {
    const script = document.createElement("script");
    script.async = true;
    script.crossOrigin = "anonymous";
    script.src = `${SCRIPT_HOST}/pagead/js/adsbygoogle.js?client=${encodeURIComponent(client)}`;
    script.dataset.adsense = "true";
    script.onload = () => resolve(true);
    script.onerror = () => {
      console.warn("The ad script could not be loaded (blocked or offline)");
      reportAdBlocked();
      resolve(false);
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Asks AdSense to fill the `<ins class="adsbygoogle">` units on the page; failures are only logged. */
export function pushAdUnit(): void {
  try {
    applyConsent().push({});
  } catch (err) {
    console.warn("The ad unit could not be filled", err);
  }
}

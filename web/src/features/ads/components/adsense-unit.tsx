import { useEffect } from "react";
import { AD_PUSH_DELAY_MS, loadAdsense, pushAdUnit } from "../lib/adsense.ts";

/** One AdSense unit filling its (size-reserving) slot. */
export function AdsenseUnit({ client, slot }: { client: string; slot: string }) {
  useEffect(() => {
    void loadAdsense(client);
    // The spec's 100 ms: the unit is in the DOM and laid out before it is pushed.
    const timer = setTimeout(pushAdUnit, AD_PUSH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [client, slot]);
  return (
    <ins
      className="adsbygoogle"
      style={{ display: "block", width: "100%", height: "100%" }}
      data-ad-client={client}
      data-ad-slot={slot}
    />
  );
}

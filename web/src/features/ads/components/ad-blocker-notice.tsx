import { useEffect, useState } from "react";
import { checkBait, useAdBlocked } from "../lib/ad-block.ts";
import { useAdsAudience } from "../lib/use-ads-audience.ts";
import { useMounted } from "../lib/use-mounted.ts";

/** Spec §8, word for word. */
export const AD_BLOCKER_TEXT =
  "We noticed you're using an ad blocker. This free tool is supported by ads. Please consider disabling your ad blocker to help us keep this service free!";

let baitChecked = false;

/** A banner for free users and visitors whose blocker hid the bait element or the ad script. */
export function AdBlockerNotice() {
  const mounted = useMounted();
  const { known, showAds } = useAdsAudience();
  const blocked = useAdBlocked();
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    if (!mounted || !known || !showAds || baitChecked) return;
    baitChecked = true;
    void checkBait();
  }, [mounted, known, showAds]);

  if (!mounted || !known || !showAds || !blocked || dismissed) return null;
  return (
    <div
      role="status"
      data-testid="ad-blocker-notice"
      className="flex items-start justify-between gap-3 border-b border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      <p className="mx-auto max-w-5xl">{AD_BLOCKER_TEXT}</p>
      <button
        type="button"
        aria-label="Dismiss the ad blocker notice"
        className="rounded px-2 text-lg leading-none text-amber-900 hover:bg-amber-100"
        onClick={() => setDismissed(true)}
      >
        ×
      </button>
    </div>
  );
}

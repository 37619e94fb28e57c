import { type RefObject, useEffect, useRef, useState } from "react";
import type { AdPlacement } from "../../../../../contract/ads.ts";
import { cn } from "../../../lib/cn.ts";
import { useSiteConfig } from "../data/get-site-config.ts";
import { useAdsAudience } from "../lib/use-ads-audience.ts";
import { useMounted } from "../lib/use-mounted.ts";
import { AdsenseUnit } from "./adsense-unit.tsx";
import { HouseAd } from "./house-ad.tsx";

export type { AdPlacement };

/** Fixed heights: the slot is reserved before it is filled, so an ad never shifts the layout. */
const SIZES: Record<AdPlacement, string> = {
  landing: "h-[250px]",
  compressor: "h-[200px] sm:h-[120px]",
  sidebar: "h-[250px]",
  article: "h-[250px]",
};

/** Each landmark's name is unique on its page (axe landmark-unique): the compressor page holds two slots. */
const LABELS: Record<AdPlacement, string> = {
  landing: "Advertisement",
  compressor: "Advertisement",
  sidebar: "Sidebar advertisement",
  article: "Advertisement",
};

/** Spec §9: the landing ad is revealed once 10% of it is visible, 100 ms later. */
export const REVEAL_THRESHOLD = 0.1;
export const REVEAL_DELAY_MS = 100;

function useRevealOnScroll(ref: RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [revealed, setRevealed] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!enabled || revealed || !el) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (typeof IntersectionObserver === "undefined") {
      timer = setTimeout(() => setRevealed(true), REVEAL_DELAY_MS);
      return () => clearTimeout(timer);
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        timer = setTimeout(() => setRevealed(true), REVEAL_DELAY_MS);
      }
    }, { threshold: REVEAL_THRESHOLD });
    observer.observe(el);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [ref, enabled, revealed]);
  return revealed;
}

/**
 * A fixed ad placement for free users and visitors; Premium users get nothing.
 * With ADSENSE_CLIENT and a slot id for the placement it holds an AdSense
 * unit, otherwise a house ad for Premium. Prerendered and hydrated as an empty
 * reserved box; the ad is filled in the browser only.
 */
export function AdSlot({ placement }: { placement: AdPlacement }) {
  const { showAds } = useAdsAudience();
  const mounted = useMounted();
  const config = useSiteConfig();
  const ref = useRef<HTMLElement>(null);
  const lazy = placement === "landing";
  const revealed = useRevealOnScroll(ref, mounted && showAds && lazy);
  if (!showAds) return null;

  const ready = mounted && config !== null && (!lazy || revealed);
  const slotId = config?.adSlots[placement];
  const network = config?.adsenseClient && slotId ? { client: config.adsenseClient, slot: slotId } : null;
  const state = !ready ? "waiting" : network ? "adsense" : "house";
  return (
    <aside
      ref={ref}
      aria-label={LABELS[placement]}
      data-ad-slot={placement}
      data-ad-state={state}
      className={cn(
        "relative w-full overflow-hidden rounded-lg border border-slate-200 bg-slate-100",
        SIZES[placement],
      )}
    >
      <span className="pointer-events-none absolute right-2 top-1 z-10 text-[11px] uppercase tracking-wide text-slate-700">
        Advertisement
      </span>
      {ready && (
        <div className="h-full w-full">
          {network ? <AdsenseUnit client={network.client} slot={network.slot} /> : <HouseAd placement={placement} />}
        </div>
      )}
    </aside>
  );
}

import { Link } from "wouter";
import type { AdPlacement } from "../../../../../contract/ads.ts";
import { PREMIUM_PRICE_LABEL } from "../../../../../contract/plans.ts";
import { paths } from "../../../../../contract/routes.ts";
import { cn } from "../../../lib/cn.ts";

/** Our own ad, shown without an ad network: it promotes Premium. */
export function HouseAd({ placement }: { placement: AdPlacement }) {
  const compact = placement === "compressor";
  return (
    <div
      className={cn(
        "flex h-full w-full items-center gap-3 bg-gradient-to-br from-amber-50 to-amber-100 px-5 text-left",
        // The compressor's strip is a row on wide screens and stacks on phones.
        compact
          ? "flex-col justify-center text-center sm:flex-row sm:justify-between sm:text-left"
          : "flex-col justify-center text-center",
      )}
    >
      <div className={cn("space-y-1", compact ? "" : "max-w-md")}>
        <p className="font-semibold text-slate-900">Go ad-free with SqueezeJPEG Premium</p>
        <p className="text-sm text-slate-700">
          Unlimited compressions, 25 MB files, batches of 100 and priority processing for {PREMIUM_PRICE_LABEL}.
        </p>
      </div>
      <Link
        href={paths.subscribe}
        className="inline-flex h-9 shrink-0 items-center rounded-md bg-amber-500 px-4 text-sm font-medium text-slate-950 hover:bg-amber-400"
      >
        Upgrade to Premium
      </Link>
    </div>
  );
}

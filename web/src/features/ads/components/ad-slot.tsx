import { isPremium } from "../../../../../contract/accounts.ts";
import { useUser } from "../../auth/api/get-user.ts";

export type AdPlacement = "landing" | "compressor" | "sidebar" | "article";

/** Reserved sizes so a filled slot never shifts the layout. */
const SIZES: Record<AdPlacement, string> = {
  landing: "min-h-[250px]",
  compressor: "min-h-[120px]",
  sidebar: "min-h-[250px]",
  article: "min-h-[250px]",
};

/**
 * A fixed ad placement for free users and visitors; Premium users get nothing.
 * (The billing/ads feature owns this component and extends it with the ad network.)
 */
export function AdSlot({ placement }: { placement: AdPlacement }) {
  const { user } = useUser();
  if (user && isPremium(user.subscriptionStatus)) return null;
  return (
    <aside aria-label="Advertisement" data-ad-slot={placement} className={`rounded-lg border border-dashed border-slate-300 bg-slate-100 p-4 text-center text-sm text-slate-500 ${SIZES[placement]}`}>
      Advertisement
    </aside>
  );
}

import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { isPremium } from "../../../../../contract/accounts.ts";
import { useUser } from "../../auth/index.ts";
import { refreshPlan, useSubscriptionStatus } from "../data/get-subscription-status.ts";

/** setTimeout's ceiling (about 24.8 days); a later end is re-armed on a later visit. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Re-reads the plan a second after the paid period ends, so a cancelled or
 * expired Premium switches back to free (ads, limits) without a reload.
 */
export function PlanExpiryWatcher() {
  const { user } = useUser();
  const premium = Boolean(user && isPremium(user.subscriptionStatus));
  const status = useSubscriptionStatus(premium);
  const qc = useQueryClient();
  const end = premium ? status.data?.currentPeriodEnd ?? null : null;

  useEffect(() => {
    if (end === null) return;
    const delay = Math.max(0, end * 1000 - Date.now() + 1000);
    if (delay > MAX_TIMER_MS) return;
    const timer = setTimeout(() => void refreshPlan(qc), delay);
    return () => clearTimeout(timer);
  }, [end, qc]);
  return null;
}

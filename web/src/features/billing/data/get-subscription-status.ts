import { type QueryClient, useQuery } from "@tanstack/react-query";
import { getSubscriptionStatus } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";

/** The card shows a failure with Retry, and the plan the user record holds meanwhile. */
export function useSubscriptionStatus(enabled = true) {
  return useQuery({ queryKey: queryKeys.subscriptionStatus, queryFn: getSubscriptionStatus, enabled });
}

/**
 * Re-reads everything that depends on the plan: the user (header, limits,
 * ads, banners), the subscription status and today's usage (its limit). Called after Pay, cancel and
 * when a period ends, so the UI follows without a reload.
 */
export async function refreshPlan(qc: QueryClient): Promise<void> {
  // Not awaited: callers' notices wait only for the plan (awaiting more lets the cancel card
  // unmount before its "Subscription Cancelled" notice is shown).
  void qc.invalidateQueries({ queryKey: queryKeys.usage });
  await Promise.all([
    qc.invalidateQueries({ queryKey: queryKeys.user }),
    qc.invalidateQueries({ queryKey: queryKeys.subscriptionStatus }),
  ]);
}

import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import type { SubscriptionStatusResponse } from "../../../../../contract/jobs.ts";
import { apiJson } from "../../../api/client.ts";
import { USER_QUERY_KEY } from "../../auth/api/get-user.ts";
import { USAGE_QUERY_KEY } from "../../usage/api/get-usage.ts";

export const SUBSCRIPTION_STATUS_QUERY_KEY = ["/api/subscription/status"] as const;

export const getSubscriptionStatus = () => apiJson<SubscriptionStatusResponse>("GET", "/api/subscription/status");

/** Spec §7: a failed status fetch is only logged (the card then shows the plan from the user). */
export const subscriptionStatusQueryOptions = () =>
  queryOptions({
    queryKey: SUBSCRIPTION_STATUS_QUERY_KEY,
    queryFn: async () => {
      try {
        return await getSubscriptionStatus();
      } catch (err) {
        console.error("Could not load the subscription status", err);
        return null;
      }
    },
  });

export function useSubscriptionStatus(enabled = true) {
  return useQuery({ ...subscriptionStatusQueryOptions(), enabled });
}

/**
 * Re-reads everything that depends on the plan: the user (header, limits,
 * ads, banners), the subscription status and today's usage (its limit). Called after Pay, cancel and
 * when a period ends, so the UI follows without a reload.
 */
export async function refreshPlan(qc: QueryClient): Promise<void> {
  // Not awaited: callers' notices wait only for the plan (awaiting more lets the cancel card
  // unmount before its "Subscription Cancelled" notice is shown).
  void qc.invalidateQueries({ queryKey: USAGE_QUERY_KEY });
  await Promise.all([
    qc.invalidateQueries({ queryKey: USER_QUERY_KEY }),
    qc.invalidateQueries({ queryKey: SUBSCRIPTION_STATUS_QUERY_KEY }),
  ]);
}

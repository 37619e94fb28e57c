import { useMutation, useQueryClient } from "@tanstack/react-query";
import { cancelSubscription } from "@web-api/endpoints.ts";
import { refreshPlan } from "./get-subscription-status.ts";

/** Spec §7: on success the status is reloaded (the caller shows the notice). */
export function useCancelSubscription() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: cancelSubscription, onSuccess: () => refreshPlan(qc) });
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../api/client.ts";
import { refreshPlan } from "./get-subscription-status.ts";

export interface CancelResult {
  success: boolean;
  message: string;
}

export const cancelSubscription = () => apiJson<CancelResult>("POST", "/api/subscription/cancel");

/** Spec §7: on success the status is reloaded (the caller shows the notice). */
export function useCancelSubscription() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: cancelSubscription, onSuccess: () => refreshPlan(qc) });
}

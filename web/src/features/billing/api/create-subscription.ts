import { useMutation } from "@tanstack/react-query";
import { apiJson } from "../../../api/client.ts";

export interface SubscriptionSession {
  sessionUrl: string;
}

/** Spec §7: an empty JSON body; the answer is where checkout happens (Stripe, or our test page). */
export const createSubscription = () => apiJson<SubscriptionSession>("POST", "/api/create-subscription", {});

export function useCreateSubscription() {
  return useMutation({ mutationFn: createSubscription });
}

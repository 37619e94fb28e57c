import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../api/client.ts";
import { refreshPlan } from "./get-subscription-status.ts";

/** Local test billing's checkout session (only when the server has no Stripe keys). */
export interface TestCheckoutSession {
  id: string;
  status: "open" | "paid" | "canceled";
  plan: string;
  price: string;
  periodDays: number;
}

export interface TestCheckoutResult {
  redirectTo: string;
}

const base = (id: string) => `/api/test-billing/${encodeURIComponent(id)}`;

export const getTestCheckout = (id: string) => apiJson<TestCheckoutSession>("GET", base(id));
export const payTestCheckout = (id: string) => apiJson<TestCheckoutResult>("POST", `${base(id)}/pay`);
export const cancelTestCheckout = (id: string) => apiJson<TestCheckoutResult>("POST", `${base(id)}/cancel`);

export const testCheckoutQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["/api/test-billing", id],
    queryFn: () => getTestCheckout(id),
    // A session changes state: read it afresh on every visit.
    staleTime: 0,
    refetchOnMount: "always",
  });

export function useTestCheckout(id: string) {
  return useQuery(testCheckoutQueryOptions(id));
}

/** Pay switches Premium on at once: the plan is re-read before the caller moves on. */
export function usePayTestCheckout(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => payTestCheckout(id),
    onSuccess: () => refreshPlan(qc),
  });
}

export function useCancelTestCheckout(id: string) {
  return useMutation({ mutationFn: () => cancelTestCheckout(id) });
}

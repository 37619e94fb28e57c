import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { cancelTestCheckout, getTestCheckout, payTestCheckout } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";
import { refreshPlan } from "./get-subscription-status.ts";

export function useTestCheckout(id: string) {
  return useQuery({
    queryKey: queryKeys.testCheckout(id),
    queryFn: () => getTestCheckout(id),
    // A session changes state: read it afresh on every visit.
    staleTime: 0,
    refetchOnMount: "always",
  });
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

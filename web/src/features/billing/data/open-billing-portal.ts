import { useMutation } from "@tanstack/react-query";
import { openBillingPortal } from "@web-api/endpoints.ts";

export function useOpenBillingPortal() {
  return useMutation({
    mutationFn: openBillingPortal,
    onSuccess: ({ url }) => globalThis.location.assign(url),
  });
}

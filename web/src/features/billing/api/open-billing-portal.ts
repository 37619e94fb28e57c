import { useMutation } from "@tanstack/react-query";
import { apiJson } from "../../../api/client.ts";

/** A Stripe Customer Portal URL, where the card and invoices are managed. */
export const openBillingPortal = () => apiJson<{ url: string }>("POST", "/api/billing/portal");

export function useOpenBillingPortal() {
  return useMutation({
    mutationFn: openBillingPortal,
    onSuccess: ({ url }) => globalThis.location.assign(url),
  });
}

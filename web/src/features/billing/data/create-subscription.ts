import { useMutation } from "@tanstack/react-query";
import { createSubscription } from "@web-api/endpoints.ts";

export function useCreateSubscription() {
  return useMutation({ mutationFn: createSubscription });
}

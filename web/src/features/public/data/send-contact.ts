import { useMutation } from "@tanstack/react-query";
import { sendContactMessage } from "@web-api/endpoints.ts";

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}

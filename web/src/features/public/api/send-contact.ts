import { useMutation } from "@tanstack/react-query";
import type { ContactInput } from "../../../../../contract/contact.ts";
import { apiJson } from "../../../api/client.ts";

export const sendContactMessage = (input: ContactInput) => apiJson<{ success: true }>("POST", "/api/contact", input);

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}

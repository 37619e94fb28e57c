import { useMutation, useQueryClient } from "@tanstack/react-query";
import { register } from "@web-api/endpoints.ts";
import { USER_QUERY_KEY } from "./get-user.ts";

export function useRegister() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: register, onSuccess: (user) => qc.setQueryData(USER_QUERY_KEY, user) });
}

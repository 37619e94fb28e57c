import { useMutation, useQueryClient } from "@tanstack/react-query";
import { login } from "@web-api/endpoints.ts";
import { USER_QUERY_KEY } from "./get-user.ts";

export function useLogin() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: login, onSuccess: (user) => qc.setQueryData(USER_QUERY_KEY, user) });
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LoginInput, User } from "../../../../../contract/accounts.ts";
import { apiJson } from "../../../api/client.ts";
import { USER_QUERY_KEY } from "./get-user.ts";

export const login = (input: LoginInput) => apiJson<User>("POST", "/api/login", input);

export function useLogin() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: login, onSuccess: (user) => qc.setQueryData(USER_QUERY_KEY, user) });
}

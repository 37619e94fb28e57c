import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RegisterInput, User } from "../../../../../contract/accounts.ts";
import { apiJson } from "../../../api/client.ts";
import { USER_QUERY_KEY } from "./get-user.ts";

export const register = (input: RegisterInput) => apiJson<User>("POST", "/api/register", input);

export function useRegister() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: register, onSuccess: (user) => qc.setQueryData(USER_QUERY_KEY, user) });
}

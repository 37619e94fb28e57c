import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../api/client.ts";
import { USER_QUERY_KEY } from "./get-user.ts";

export const logout = () => apiRequest("POST", "/api/logout");

/** Spec §7: clear the cached user and reload; a failure is only logged. */
export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      qc.setQueryData(USER_QUERY_KEY, null);
      globalThis.location.assign("/");
    },
    onError: (err) => console.error("Logout failed", err),
  });
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { logout } from "@web-api/endpoints.ts";
import { USER_QUERY_KEY } from "./get-user.ts";

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

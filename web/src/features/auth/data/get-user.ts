import { useQuery } from "@tanstack/react-query";
import { getUser } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";

export const USER_QUERY_KEY = queryKeys.user;

export function useUser() {
  const query = useQuery({ queryKey: USER_QUERY_KEY, queryFn: getUser });
  return {
    user: query.data ?? null,
    isLoading: query.isLoading,
    isAuthenticated: Boolean(query.data),
    /** For its error state (signed out is not an error: the user is then null). */
    query,
  };
}

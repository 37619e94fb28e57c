import { queryOptions, useQuery } from "@tanstack/react-query";
import type { User } from "../../../../../contract/accounts.ts";
import { apiJson, ApiRequestError } from "../../../api/client.ts";

export const USER_QUERY_KEY = ["/api/user"] as const;

/** The current user, or null when signed out: a 401 here is a state, not an error. */
export async function getUser(): Promise<User | null> {
  try {
    return await apiJson<User>("GET", "/api/user");
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 401) return null;
    throw err;
  }
}

export const userQueryOptions = () => queryOptions({ queryKey: USER_QUERY_KEY, queryFn: getUser });

export function useUser() {
  const query = useQuery(userQueryOptions());
  return {
    user: query.data ?? null,
    isLoading: query.isLoading,
    isAuthenticated: Boolean(query.data),
  };
}

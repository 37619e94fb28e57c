import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createApiKey, listApiKeys, revokeApiKey } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";

/** The signed-in account's API keys (names and prefixes; never a secret). */
export function useApiKeys(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.apiKeys, queryFn: listApiKeys, enabled });
}

/**
 * Creates a key. The secret comes back in this mutation's answer only: the caller shows it and the
 * list is read again from the server, so the secret never enters the query cache.
 */
export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.apiKeys }),
  });
}

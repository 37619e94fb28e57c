import { QueryClient } from "@tanstack/react-query";

/** Spec §7: cached reads are not retried, do not refetch on focus, and never go stale. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity },
      mutations: { retry: false },
    },
  });
}

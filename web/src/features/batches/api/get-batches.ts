import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Batch } from "../../../../../contract/jobs.ts";
import { apiJson } from "../../../api/client.ts";

export const BATCHES_QUERY_KEY = ["/api/batches"] as const;
/** Spec §9: batches every 2 s, only while one is pending or processing. */
export const BATCHES_POLL_MS = 2000;

export const batchIsActive = (b: Pick<Batch, "status">) => b.status === "pending" || b.status === "processing";

export const getBatches = () => apiJson<{ batches: Batch[] }>("GET", "/api/batches");

export const batchesQueryOptions = () =>
  queryOptions({
    queryKey: BATCHES_QUERY_KEY,
    queryFn: getBatches,
    refetchInterval: (query) => (query.state.data?.batches.some(batchIsActive) ? BATCHES_POLL_MS : false),
  });

export function useBatches() {
  const query = useQuery(batchesQueryOptions());
  return { ...query, batches: query.data?.batches ?? EMPTY };
}

const EMPTY: Batch[] = [];

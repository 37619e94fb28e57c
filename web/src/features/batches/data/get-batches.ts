import { useQuery } from "@tanstack/react-query";
import type { Batch } from "../../../../../contract/jobs.ts";
import { listBatches } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";

/** Spec §9: batches every 2 s, only while one is pending or processing. */
export const BATCHES_POLL_MS = 2000;

export const batchIsActive = (b: Pick<Batch, "status">) => b.status === "pending" || b.status === "processing";

export function useBatches() {
  const query = useQuery({
    queryKey: queryKeys.batches,
    queryFn: listBatches,
    refetchInterval: (query) => (query.state.data?.batches.some(batchIsActive) ? BATCHES_POLL_MS : false),
  });
  return { ...query, batches: query.data?.batches ?? EMPTY };
}

const EMPTY: Batch[] = [];

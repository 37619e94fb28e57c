import { queryOptions, useQuery } from "@tanstack/react-query";
import type { QueueStatus } from "../../../../../contract/jobs.ts";
import { apiJson } from "../../../api/client.ts";

export const QUEUE_STATUS_QUERY_KEY = ["/api/queue/status"] as const;
/** Spec §9: queue status every second, only while work is in flight. */
export const QUEUE_POLL_MS = 1000;

export const getQueueStatus = () => apiJson<QueueStatus>("GET", "/api/queue/status");

export const queueStatusQueryOptions = (active: boolean) =>
  queryOptions({
    queryKey: QUEUE_STATUS_QUERY_KEY,
    queryFn: getQueueStatus,
    refetchInterval: active ? QUEUE_POLL_MS : false,
  });

export const useQueueStatus = (active: boolean) => useQuery(queueStatusQueryOptions(active));

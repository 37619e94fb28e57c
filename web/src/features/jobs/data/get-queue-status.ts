import { useQuery } from "@tanstack/react-query";
import { getQueueStatus } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";

/** Spec §9: queue status every second, only while work is in flight. */
export const QUEUE_POLL_MS = 1000;

export const useQueueStatus = (active: boolean) =>
  useQuery({
    queryKey: queryKeys.queueStatus,
    queryFn: getQueueStatus,
    refetchInterval: active ? QUEUE_POLL_MS : false,
  });

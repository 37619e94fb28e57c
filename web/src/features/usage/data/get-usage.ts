import { useQuery } from "@tanstack/react-query";
import { getUsage } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";

const USAGE_POLL_MS = 2000;

/** Usage moves only as jobs complete, so it is refreshed while work is in flight. */
export const useUsage = (active: boolean) =>
  useQuery({ queryKey: queryKeys.usage, queryFn: getUsage, refetchInterval: active ? USAGE_POLL_MS : false });

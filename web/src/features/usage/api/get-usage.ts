import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Usage } from "../../../../../contract/jobs.ts";
import { apiJson } from "../../../api/client.ts";

export const USAGE_QUERY_KEY = ["/api/usage"] as const;
const USAGE_POLL_MS = 2000;

export const getUsage = () => apiJson<Usage>("GET", "/api/usage");

/** Usage moves only as jobs complete, so it is refreshed while work is in flight. */
export const usageQueryOptions = (active: boolean) =>
  queryOptions({ queryKey: USAGE_QUERY_KEY, queryFn: getUsage, refetchInterval: active ? USAGE_POLL_MS : false });

export const useUsage = (active: boolean) => useQuery(usageQueryOptions(active));

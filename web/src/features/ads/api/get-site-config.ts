import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SiteConfig } from "../../../../../contract/ads.ts";
import { apiJson } from "../../../api/client.ts";

export const SITE_CONFIG_QUERY_KEY = ["/api/config"] as const;

/** This deployment's billing mode and ad network (GET /api/config). */
export const getSiteConfig = () => apiJson<SiteConfig>("GET", "/api/config");

export const siteConfigQueryOptions = () => queryOptions({ queryKey: SITE_CONFIG_QUERY_KEY, queryFn: getSiteConfig });

/** Null until loaded, and when it cannot be loaded (ads then fall back to house ads). */
export function useSiteConfig(): SiteConfig | null {
  return useQuery(siteConfigQueryOptions()).data ?? null;
}

import { useQuery } from "@tanstack/react-query";
import type { SiteConfig } from "../../../../../contract/ads.ts";
import { getSiteConfig } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";

/** Null until loaded, and when it cannot be loaded (ads then fall back to house ads). */
export function useSiteConfig(): SiteConfig | null {
  return useQuery({ queryKey: queryKeys.siteConfig, queryFn: getSiteConfig }).data ?? null;
}

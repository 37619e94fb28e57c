import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SavedSettings } from "../../../../../contract/settings.ts";
import { apiJson } from "../../../api/client.ts";

export type { SavedSettings };

export const SETTINGS_QUERY_KEY = ["/api/settings"] as const;

export const getSettings = () => apiJson<{ settings: SavedSettings }>("GET", "/api/settings");

export const settingsQueryOptions = () => queryOptions({ queryKey: SETTINGS_QUERY_KEY, queryFn: getSettings });

export const useSettings = () => useQuery(settingsQueryOptions());

export const updateSettings = (settings: SavedSettings) =>
  apiJson<{ settings: SavedSettings }>("PUT", "/api/settings", settings);

export function useUpdateSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (data) => qc.setQueryData(SETTINGS_QUERY_KEY, data),
    // Remembering settings is a convenience: a failure must not interrupt the user.
    onError: (err) => console.error("Saving settings failed", err),
  });
}

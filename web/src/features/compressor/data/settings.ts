import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SavedSettings } from "../../../../../contract/settings.ts";
import { getSettings, saveSettings } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";

export type { SavedSettings };

export const useSettings = () => useQuery({ queryKey: queryKeys.settings, queryFn: getSettings });

export function useUpdateSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveSettings,
    onSuccess: (data) => qc.setQueryData(queryKeys.settings, data),
    // Remembering settings is a convenience: a failure must not interrupt the user.
    onError: (err) => console.error("Saving settings failed", err),
  });
}

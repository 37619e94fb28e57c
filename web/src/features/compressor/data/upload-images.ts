import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Usage } from "../../../../../contract/jobs.ts";
import { queryKeys } from "@web-api/query-keys.ts";
import { postCompress, type UploadProgress } from "@web-api/upload.ts";
import { sendableSettings } from "../lib/compress-settings.ts";
import { settingsToFields } from "../../../../../contract/settings.ts";
import type { SavedSettings } from "./settings.ts";

export interface UploadInput {
  files: File[];
  settings: SavedSettings;
  /** Premium only: the server refuses targets for free users. */
  allowTarget: boolean;
}

export type { UploadProgress };

/**
 * The multipart body of an upload: settings as text, then one `images` part per file. Settings first: the
 * server begins each image's work as soon as it has arrived, with the settings read before it (ADR 056).
 */
export function compressForm({ files, settings, allowTarget }: UploadInput): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(settingsToFields(sendableSettings(settings, allowTarget)))) {
    form.append(name, value);
  }
  for (const file of files) form.append("images", file, file.name);
  return form;
}

/** Upload + bytes-sent progress; afterwards every view of the work is refreshed. */
export function useUploadImages() {
  const qc = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const mutation = useMutation({
    mutationFn: (input: UploadInput) => {
      setProgress({ sent: 0, total: 1 });
      return postCompress(compressForm(input), setProgress);
    },
    // The accepted files are charged at once: count them before usage is read again, so the
    // button never offers quota that is already spent.
    onSuccess: (res) => {
      const charged = res.jobs.length - (res.refused?.length ?? 0);
      qc.setQueryData<Usage>(queryKeys.usage, (u) => (u ? { ...u, used: u.used + charged } : u));
    },
    onSettled: () => {
      for (const queryKey of [queryKeys.jobs, queryKeys.batches, queryKeys.queueStatus, queryKeys.usage]) {
        void qc.invalidateQueries({ queryKey });
      }
    },
  });
  return { ...mutation, progress };
}

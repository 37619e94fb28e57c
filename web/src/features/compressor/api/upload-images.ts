import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { CompressResponse, Usage } from "../../../../../contract/jobs.ts";
import { throwIfNotOk } from "../../../api/client.ts";
import { BATCHES_QUERY_KEY } from "../../batches/api/get-batches.ts";
import { JOBS_QUERY_KEY } from "../../jobs/api/get-jobs.ts";
import { QUEUE_STATUS_QUERY_KEY } from "../../jobs/api/get-queue-status.ts";
import { USAGE_QUERY_KEY } from "../../usage/api/get-usage.ts";
import { encoderFor } from "../lib/compress-settings.ts";
import type { SavedSettings } from "./settings.ts";

export interface UploadInput {
  files: File[];
  settings: SavedSettings;
  /** Premium only: the server refuses targets for free users. */
  allowTarget: boolean;
}

export interface UploadProgress {
  sent: number;
  total: number;
}

/** The multipart body of `POST /api/compress`: one `images` part per file, settings as text. */
export function compressForm({ files, settings, allowTarget }: UploadInput): FormData {
  const form = new FormData();
  for (const file of files) form.append("images", file, file.name);
  form.append("quality", String(settings.quality));
  form.append("format", settings.format);
  form.append("encoder", encoderFor(settings));
  form.append("mode", settings.mode);
  form.append("progressive", String(settings.progressive));
  form.append("mozjpeg", String(settings.mozjpeg));
  form.append("optimizeForWeb", String(settings.optimizeForWeb));
  form.append("stripMetadata", String(settings.stripMetadata));
  form.append("chromaSubsampling", settings.chromaSubsampling);
  form.append("priority", settings.priority);
  form.append("maxConcurrent", String(settings.maxConcurrent));
  form.append("pauseOnError", String(settings.pauseOnError));
  if (allowTarget && settings.target) form.append("target", JSON.stringify(settings.target));
  return form;
}

/**
 * Sends the upload with XMLHttpRequest because fetch cannot report bytes sent.
 * It follows the client's conventions: cookies always, and a non-OK answer
 * becomes the same `ApiRequestError` (message = the server's `error`, else "Upload failed").
 */
export function uploadImages(
  input: UploadInput,
  onProgress: (p: UploadProgress) => void,
): Promise<CompressResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/compress");
    xhr.withCredentials = true;
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress({ sent: e.loaded, total: e.total });
    };
    xhr.onload = async () => {
      const res = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        statusText: xhr.statusText,
      });
      try {
        await throwIfNotOk(res);
        resolve(await res.json() as CompressResponse);
      } catch (err) {
        reject(err);
      }
    };
    xhr.onerror = () => reject(new Error("The upload could not reach the server; check your connection"));
    xhr.onabort = () => reject(new Error("The upload was cancelled"));
    xhr.send(compressForm(input));
  });
}

/** Upload + bytes-sent progress; afterwards every view of the work is refreshed. */
export function useUploadImages() {
  const qc = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const mutation = useMutation({
    mutationFn: (input: UploadInput) => {
      setProgress({ sent: 0, total: 1 });
      return uploadImages(input, setProgress);
    },
    // The accepted files are charged at once: count them before usage is read again, so the
    // button never offers quota that is already spent.
    onSuccess: (res) => {
      const charged = res.jobs.length - (res.refused?.length ?? 0);
      qc.setQueryData<Usage>(USAGE_QUERY_KEY, (u) => (u ? { ...u, used: u.used + charged } : u));
    },
    onSettled: () => {
      for (const queryKey of [JOBS_QUERY_KEY, BATCHES_QUERY_KEY, QUEUE_STATUS_QUERY_KEY, USAGE_QUERY_KEY]) {
        void qc.invalidateQueries({ queryKey });
      }
    },
  });
  return { ...mutation, progress };
}

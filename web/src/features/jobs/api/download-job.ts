import type { Job, PreviewSize } from "../../../../../contract/jobs.ts";
import { apiRequest, ApiRequestError } from "../../../api/client.ts";
import { downloadName } from "../lib/job-state.ts";

/** Spec §9: Download All pauses this long between files. */
export const DOWNLOAD_ALL_PAUSE_MS = 500;

export const downloadUrl = (id: string) => `/api/download/${encodeURIComponent(id)}`;
export const previewUrl = (id: string, size: PreviewSize = "original") =>
  `/api/preview/${encodeURIComponent(id)}${size === "original" ? "" : `?size=${size}`}`;

function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  // Give the browser time to start the save before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * Spec §7: fetch the result as a blob and save it under the job's file name;
 * on failure log "Download failed: {status} - {body}" and open the URL in a new tab.
 */
export async function downloadJob(job: Pick<Job, "id" | "filename" | "format">): Promise<boolean> {
  try {
    const res = await apiRequest("GET", downloadUrl(job.id));
    saveBlob(await res.blob(), downloadName(job));
    return true;
  } catch (err) {
    if (err instanceof ApiRequestError) {
      console.error(`Download failed: ${err.status} - ${err.serverMessage ?? err.message}`);
    } else {
      console.error("Download failed:", err);
    }
    globalThis.open(downloadUrl(job.id), "_blank", "noopener");
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Download All: one file at a time with a 500 ms pause between them. */
export async function downloadAll(
  jobs: Pick<Job, "id" | "filename" | "format">[],
  onProgress?: (done: number) => void,
): Promise<void> {
  for (const [i, job] of jobs.entries()) {
    await downloadJob(job);
    onProgress?.(i + 1);
    if (i < jobs.length - 1) await sleep(DOWNLOAD_ALL_PAUSE_MS);
  }
}

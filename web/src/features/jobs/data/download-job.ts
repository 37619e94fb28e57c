import { useMutation } from "@tanstack/react-query";
import type { Job } from "../../../../../contract/jobs.ts";
import { ApiRequestError, messageOf } from "@web-api/client.ts";
import { downloadUrl, fetchAllResultsZip, fetchResult } from "@web-api/endpoints.ts";
import { toast } from "../../../components/ui/use-toast.ts";
import { downloadName } from "../lib/job-state.ts";
import { dispositionName, saveBlob } from "../../../lib/save-file.ts";

/**
 * Spec §7: fetch the result as a blob and save it under the job's file name;
 * on failure log "Download failed: {status} - {body}" and open the URL in a new tab.
 */
export async function downloadJob(
  job: Pick<Job, "id" | "filename" | "format" | "webSet" | "keptOriginal">,
  /** Another name than the job's (an earlier version's, named by its settings). */
  name = downloadName(job),
): Promise<boolean> {
  try {
    const res = await fetchResult(job.id);
    saveBlob(await res.blob(), name);
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

/**
 * Download all (issue 15, item 6): one ZIP of every completed result, saved under the server's
 * name (`squeezejpeg-YYYY-MM-DD-N-images.zip`). Fetched first, so a refusal (409 when nothing is
 * left to download) becomes an `ApiRequestError` with the server's message instead of a failed file.
 */
export async function downloadAllZip(versions: "latest" | "all" = "latest"): Promise<string> {
  const res = await fetchAllResultsZip(versions);
  const name = dispositionName(res.headers.get("Content-Disposition")) ?? "squeezejpeg-images.zip";
  saveBlob(await res.blob(), name);
  return name;
}

/** Download all as one ZIP; a refusal is a toast with the server's reason. */
export function useDownloadAllZip() {
  return useMutation({
    mutationFn: (versions: "latest" | "all" = "latest") => downloadAllZip(versions),
    onError: (err) =>
      toast({
        title: "Download failed",
        description: messageOf(err, "The ZIP could not be downloaded; please try again"),
        variant: "destructive",
      }),
  });
}

/**
 * What a page loads of a web set (issue 30, item 6): the file a phone and a desktop take from its
 * `<picture>` (contract/web-sets.ts `loadedFile`). Shared by the job card and the batch summaries.
 */
import type { Job } from "../../../contract/jobs.ts";
import { DESKTOP_WIDTH, loadedFile, PHONE_WIDTH, type SetFile, type WebSet } from "../../../contract/web-sets.ts";

export interface PageWeight {
  phone: SetFile;
  desktop: SetFile;
}

export const pageWeight = (set: WebSet): PageWeight => ({
  phone: loadedFile(set, PHONE_WIDTH),
  desktop: loadedFile(set, DESKTOP_WIDTH),
});

/**
 * The bytes a completed result is weighed by in savings: its compressed size, but for a web set the file
 * a desktop loads (its page weight), not the set's ZIP, which holds every width and format and is a
 * download, not what a visitor loads.
 */
export function resultBytes(job: Pick<Job, "originalSize" | "compressedSize" | "webSet">): number {
  if (job.webSet && job.webSet.files.length > 0) return pageWeight(job.webSet).desktop.bytes;
  return job.compressedSize ?? job.originalSize;
}

import { downloadName as nameFor, type Job, resultFormat } from "../../../../../contract/jobs.ts";
import { versionName } from "../../../../../contract/file-names.ts";

/** Work the server has not finished yet: while any exists, the page polls. */
export const isInFlight = (job: Pick<Job, "status">): boolean =>
  job.status === "pending" || job.status === "processing";

/** The page keeps polling while work is in flight or a completed job's score is still to come. */
export const awaitsServer = (job: Pick<Job, "status" | "scorePending">): boolean => isInFlight(job) || job.scorePending;

export const isDownloadable = (job: Pick<Job, "status" | "expired">): boolean =>
  job.status === "completed" && !job.expired;

/**
 * The name a result is saved under: the original base name, `.webp` when converted; a web set's ZIP is
 * `name.zip`, as the server's Content-Disposition names it.
 */
export const downloadName = (job: Pick<Job, "filename" | "format" | "webSet" | "keptOriginal">): string =>
  job.webSet ? `${job.webSet.name}.zip` : nameFor(job.filename, resultFormat(job));

/** An earlier version's name, tagged by its settings (`beach.q70.jpg`; a web set's `beach.auto.zip`). */
export function versionDownloadName(job: Pick<Job, "filename" | "format" | "settings" | "keptOriginal" | "webSet">) {
  const name = versionName(job.filename, job.settings, resultFormat(job));
  return job.webSet ? name.replace(/\.[^.]+$/, ".zip") : name;
}

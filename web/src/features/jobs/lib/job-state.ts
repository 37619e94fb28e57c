import { downloadName as nameFor, type Job } from "../../../../../contract/jobs.ts";

/** Work the server has not finished yet: while any exists, the page polls. */
export const isInFlight = (job: Pick<Job, "status">): boolean =>
  job.status === "pending" || job.status === "processing";

/** The page keeps polling while work is in flight or a completed job's score is still to come. */
export const awaitsServer = (job: Pick<Job, "status" | "scorePending">): boolean => isInFlight(job) || job.scorePending;

export const isDownloadable = (job: Pick<Job, "status" | "expired">): boolean =>
  job.status === "completed" && !job.expired;

/** The name a result is saved under: the original base name, `.webp` when converted. */
export const downloadName = (job: Pick<Job, "filename" | "format">): string => nameFor(job.filename, job.format);

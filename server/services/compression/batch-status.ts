import type { BatchStatus, JobStatus } from "../../../contract/jobs.ts";

/**
 * A batch's status from its jobs (spec §4). Cancelled is final; paused holds
 * while work is left; otherwise it follows the jobs.
 */
export function deriveBatchStatus(current: BatchStatus, jobStatuses: JobStatus[]): BatchStatus {
  if (current === "cancelled") return "cancelled";
  const open = jobStatuses.filter((s) => s === "pending" || s === "processing").length;
  if (open > 0) {
    if (current === "paused") return "paused";
    const started = jobStatuses.some((s) => s !== "pending");
    return started ? "processing" : "pending";
  }
  if (jobStatuses.length === 0) return current;
  return jobStatuses.some((s) => s === "completed") ? "completed" : "error";
}

import type { Batch, BatchStatus } from "../../../../../contract/jobs.ts";

/** Spec §4: pause only while processing, resume only while paused, cancel while pending, processing or paused. */
export const canPause = (s: BatchStatus) => s === "processing";
export const canResume = (s: BatchStatus) => s === "paused";
export const canCancel = (s: BatchStatus) => s === "pending" || s === "processing" || s === "paused";

export interface BatchCounts {
  done: number;
  completed: number;
  failed: number;
  total: number;
  percent: number;
}

/** Finished jobs (completed or failed) out of the batch's files. */
export function batchCounts(batch: Pick<Batch, "jobs" | "totalFiles">): BatchCounts {
  const completed = batch.jobs.filter((j) => j.status === "completed").length;
  const failed = batch.jobs.filter((j) => j.status === "error").length;
  const total = Math.max(batch.totalFiles, batch.jobs.length);
  const done = completed + failed;
  return { done, completed, failed, total, percent: total > 0 ? Math.round((done / total) * 100) : 0 };
}

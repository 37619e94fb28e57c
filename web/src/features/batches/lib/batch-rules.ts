import type { Batch } from "../../../../../contract/jobs.ts";

/** Spec §4's controls per status, one rule for the server and the buttons (contract/jobs.ts). */
export {
  canCancelBatch as canCancel,
  canPauseBatch as canPause,
  canResumeBatch as canResume,
} from "../../../../../contract/jobs.ts";

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

/** A job as the scheduler sees it (scheduling/policy.ts), from its rows or from what the shared queue offers. */
import { jobBytesPerPixel, setLanes } from "../../../codecs/mod.ts";
import type { PlanLimits } from "../../../contract/plans.ts";
import { parseStoredSettings } from "../../../contract/settings.ts";
import type { BatchRow, JobRow } from "../../../db/schema.ts";
import type { ClaimableJob } from "../lifecycle/queue-reads.ts";
import { BATCH_PRIORITY_RANK, concurrencyOf, type QueuedJob } from "../scheduling/policy.ts";
import { batchSettings } from "./views.ts";

/** A pending job of this instance (admitted, adopted or resumed here); `order`: the scheduler's next. */
export function queuedJob(row: JobRow, batch: BatchRow, plan: PlanLimits, order: number): QueuedJob {
  const options = batchSettings(batch);
  return {
    jobId: row.id,
    pixels: row.pixels,
    bytes: row.originalSize,
    perPixel: jobBytesPerPixel(options),
    lanes: setLanes(options),
    userId: row.userId,
    batchId: batch.id,
    planPriority: plan.priority,
    batchPriority: BATCH_PRIORITY_RANK[options.priority],
    userLimit: concurrencyOf(plan, options.maxConcurrent),
    order,
  };
}

/** A job the shared queue offers. */
export function claimableJob(j: ClaimableJob, plan: PlanLimits): QueuedJob {
  const settings = parseStoredSettings(j.settingsJson);
  return {
    jobId: j.jobId,
    userId: j.userId,
    batchId: j.batchId,
    pixels: j.pixels,
    bytes: Number(j.bytes),
    perPixel: jobBytesPerPixel(settings),
    lanes: setLanes(settings),
    planPriority: plan.priority,
    batchPriority: BATCH_PRIORITY_RANK[j.batchPriority],
    userLimit: concurrencyOf(plan, j.maxConcurrent),
    // Oldest first: the batch admitted first, then its order.
    order: j.createdAt * 1000 + j.seq,
  };
}

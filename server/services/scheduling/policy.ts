/**
 * The one scheduling policy (DESIGN §5, ADR 023): which waiting jobs run next. A pure function of
 * the queue's state, used by the in-process scheduler (compression/scheduler.ts), by the shared
 * queue's pull (compression/queue-puller.ts) and mirrored by the SQL that offers jobs to the pull
 * (lifecycle/queue-reads.ts orders by the same keys). In order:
 *
 * 1. plan priority: Premium before free;
 * 2. round-robin across users: the user with the fewest jobs in work first, then the user served
 *    longest ago (so one user's 100-file batch never starves another user's single image);
 * 3. among one user's jobs: the batch's own priority (high, normal, low), then the batch admitted
 *    first, and within a batch the larger image first (ADR 004);
 * 4. within per-user concurrency: a user at their limit waits; a paused batch is skipped.
 *
 * A free user's High batch reorders only that user's own work, never other users'.
 */
import type { PlanLimits } from "../../../contract/plans.ts";
import type { BatchPriority } from "../../../contract/settings.ts";

/** A batch's priority as a rank: higher runs first among one user's jobs. */
export const BATCH_PRIORITY_RANK: Record<BatchPriority, number> = { low: 0, normal: 1, high: 2 };

/** How many jobs a user may have in work: the plan's fixed number (free), else the batch's own setting. */
export const concurrencyOf = (plan: PlanLimits, batchMaxConcurrent: number): number =>
  plan.fixedConcurrency ?? batchMaxConcurrent;

/** A job waiting to run, as the policy sees it. */
export interface QueuedJob {
  jobId: string;
  userId: number;
  batchId: string;
  /** The plan's priority: 1 for Premium, 0 for free (contract/plans.ts). */
  planPriority: number;
  /** BATCH_PRIORITY_RANK of the batch's priority. */
  batchPriority: number;
  /** The most jobs this user may have in work at once. */
  userLimit: number;
  /** Admission order (lower came first): a user's batches run in the order they came. */
  order: number;
  /** Width × height from the header (0 if unreadable). */
  pixels: number;
  /** The original's size: a job's memory follows its bytes as well as its pixels (ADR 027). */
  bytes: number;
  /** Bytes per pixel its work holds at its peak (codecs/pool/job-memory.ts: by its formats and whether it measures). */
  perPixel: number;
  /** Workers its work can be split over when it runs alone (a web set's widths; absent: 1). */
  lanes?: number;
}

/** What the policy needs besides the waiting jobs. */
export interface QueueState {
  /** Jobs each user has in work now (running here, or held by any instance on a shared queue). */
  inWork: ReadonlyMap<number, number>;
  /** When each user last had a job started (any increasing number); absent: never. */
  lastServed: ReadonlyMap<number, number>;
  /** Batches that must not start jobs. */
  paused: ReadonlySet<string>;
}

/** Whether `job` may start now: its batch is not paused and its user is below their concurrency. */
export function mayStart(job: QueuedJob, state: QueueState): boolean {
  return !state.paused.has(job.batchId) && (state.inWork.get(job.userId) ?? 0) < job.userLimit;
}

/** Whether `a` runs before `b` (both allowed to start), by the keys above in order. */
export function runsBefore(a: QueuedJob, b: QueuedJob, state: QueueState): boolean {
  if (a.planPriority !== b.planPriority) return a.planPriority > b.planPriority;
  if (a.userId !== b.userId) {
    const wa = state.inWork.get(a.userId) ?? 0, wb = state.inWork.get(b.userId) ?? 0;
    if (wa !== wb) return wa < wb;
    const sa = state.lastServed.get(a.userId) ?? -Infinity, sb = state.lastServed.get(b.userId) ?? -Infinity;
    if (sa !== sb) return sa < sb;
    return a.order < b.order;
  }
  if (a.batchPriority !== b.batchPriority) return a.batchPriority > b.batchPriority;
  if (a.batchId === b.batchId && a.pixels !== b.pixels) return a.pixels > b.pixels;
  return a.order < b.order;
}

/** The job to start next among those `eligible` admits (default all), or undefined when none may start. */
export function nextJob(
  queue: readonly QueuedJob[],
  state: QueueState,
  eligible: (job: QueuedJob) => boolean = () => true,
): QueuedJob | undefined {
  let best: QueuedJob | undefined;
  for (const job of queue) {
    if (!mayStart(job, state) || !eligible(job)) continue;
    if (best === undefined || runsBefore(job, best, state)) best = job;
  }
  return best;
}

/**
 * The next `count` jobs in the order they would start if none finished meanwhile: each pick counts
 * as in work and as served, so the following picks see it.
 */
export function nextJobs(queue: readonly QueuedJob[], state: QueueState, count: number): QueuedJob[] {
  const left = [...queue];
  const inWork = new Map(state.inWork);
  const lastServed = new Map(state.lastServed);
  let tick = Math.max(0, ...lastServed.values());
  const picked: QueuedJob[] = [];
  while (picked.length < count) {
    const job = nextJob(left, { inWork, lastServed, paused: state.paused });
    if (!job) break;
    picked.push(job);
    left.splice(left.indexOf(job), 1);
    inWork.set(job.userId, (inWork.get(job.userId) ?? 0) + 1);
    lastServed.set(job.userId, ++tick);
  }
  return picked;
}

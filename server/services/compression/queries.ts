/** Reads (DESIGN §5): job and batch lists, one job (or its end), queue status and usage. Nothing here writes. */
import type { Batch, Job, QueueStatus, Usage } from "../../../contract/jobs.ts";
import type { SavedSettings } from "../../../contract/settings.ts";
import type { JobRow, UserRow } from "../../../db/schema.ts";
import { DomainError, type JobErrorCode, jobErrorCode } from "../../domain-error.ts";
import { concurrencyOf } from "../scheduling/policy.ts";
import { planOf } from "../plan.ts";
import { storedSettings } from "../user-settings.ts";
import type { JobEndings } from "./job-endings.ts";
import type { JobQueue } from "./job-queue.ts";
import { isExpired, ownedBatch, ownedJob } from "./owned.ts";
import { nextUtcMidnight, utcDay } from "./quota-day.ts";
import type { CompressionReads } from "./reads.ts";
import { batchSettings, toBatch, toJob } from "./views.ts";

/**
 * How often a caller waiting for a job reads it when no run on this instance wakes it: only a
 * job run by another instance (a shared queue) needs this.
 */
export const END_FALLBACK_MS = 500;

/** A job that has ended, as the user sees it, and the code it failed with (null: completed, or a row from before codes). */
export interface EndedJob {
  job: Job;
  errorCode: JobErrorCode | null;
}

export interface QueriesDeps {
  reads: Pick<
    CompressionReads,
    | "listJobsForUser"
    | "findJobOfUser"
    | "jobsOfBatch"
    | "jobsOfBatches"
    | "findBatch"
    | "findBatchOfUser"
    | "findBatches"
    | "listBatchesForUser"
    | "usedOn"
  >;
  /** Live progress of the runs here (runner.ts), shown instead of the stored one. */
  progress: ReadonlyMap<string, number>;
  endings: Pick<JobEndings, "next">;
  jobQueue: Pick<JobQueue, "inWork">;
  now: () => number;
}

export class Queries {
  constructor(private readonly deps: QueriesDeps) {}

  #view(row: JobRow, settingsByBatch: Map<string, SavedSettings>): Job {
    const settings = settingsByBatch.get(row.batchId)!;
    const job = toJob(row, settings, this.deps.progress.get(row.id));
    if (job.status === "completed" && !job.expired && isExpired(row, this.deps.now())) job.expired = true;
    return job;
  }

  async listJobs(userId: number): Promise<Job[]> {
    const { reads } = this.deps;
    const rows = await reads.listJobsForUser(userId);
    // One query for every batch's settings: this runs on every poll.
    const batches = await reads.findBatches([...new Set(rows.map((r) => r.batchId))]);
    const settings = new Map(batches.map((b) => [b.id, batchSettings(b)]));
    return rows.map((r) => this.#view(r, settings));
  }

  /** One of the user's jobs as GET /api/jobs lists it (not_found for another user's). */
  async job(userId: number, jobId: string): Promise<Job> {
    return await this.#jobView(await ownedJob(this.deps.reads, userId, jobId));
  }

  async #jobView(row: JobRow): Promise<Job> {
    const batch = await this.deps.reads.findBatch(row.batchId);
    if (!batch) throw new DomainError("not_found", "No such job");
    return this.#view(row, new Map([[batch.id, batchSettings(batch)]]));
  }

  /**
   * The user's job once it has ended (completed or failed), with its failure's code. Woken by the run that ends it on this
   * instance (JobEndings); a job another instance runs is read every `fallbackMs`. Null when the
   * job is deleted meanwhile, or when `signal` aborts first (the client went away: the job goes on).
   */
  async awaitEnd(
    userId: number,
    jobId: string,
    signal: AbortSignal,
    fallbackMs = END_FALLBACK_MS,
  ): Promise<EndedJob | null> {
    for (;;) {
      // Listen before reading, so an end between the read and the wait is not missed.
      const next = this.deps.endings.next(jobId, fallbackMs, signal);
      const row = await this.deps.reads.findJobOfUser(jobId, userId).catch((err) => {
        next.cancel();
        throw err;
      });
      if (!row || row.status === "completed" || row.status === "error" || signal.aborted) {
        next.cancel();
        return row && !signal.aborted
          ? { job: await this.#jobView(row), errorCode: jobErrorCode(row.errorCode) }
          : null;
      }
      await next.wait;
    }
  }

  async listBatches(userId: number): Promise<Batch[]> {
    const { reads } = this.deps;
    const rows = await reads.listBatchesForUser(userId);
    const jobRows = await reads.jobsOfBatches(rows.map((b) => b.id));
    const settings = new Map(rows.map((b) => [b.id, batchSettings(b)]));
    return rows.map((b) => toBatch(b, jobRows.filter((j) => j.batchId === b.id).map((j) => this.#view(j, settings))));
  }

  /** One of the user's batches with its jobs (as the batch controls answer). */
  async batch(userId: number, batchId: string): Promise<Batch> {
    const batch = await ownedBatch(this.deps.reads, userId, batchId);
    const settings = new Map([[batch.id, batchSettings(batch)]]);
    const jobs = (await this.deps.reads.jobsOfBatch(batch.id)).map((j) => this.#view(j, settings));
    return toBatch(batch, jobs);
  }

  async queueStatus(user: UserRow): Promise<QueueStatus> {
    const plan = planOf(user, this.deps.now());
    const max = concurrencyOf(plan, storedSettings(user).maxConcurrent);
    const current = await this.deps.jobQueue.inWork(user.id);
    return { maxConcurrentJobs: max, currentlyProcessing: current, availableSlots: Math.max(0, max - current) };
  }

  async usage(user: UserRow): Promise<Usage> {
    const now = this.deps.now();
    const plan = planOf(user, now);
    return {
      used: await this.deps.reads.usedOn(user.id, utcDay(now)),
      limit: plan.dailyCompressions,
      resetsAt: nextUtcMidnight(now).toISOString(),
    };
  }
}

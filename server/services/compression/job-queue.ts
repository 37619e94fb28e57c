/**
 * Where this instance's jobs wait (ADR 018). Alone (`LocalQueue`), in its own scheduler, each job
 * leased to it from admission. On a shared queue (`SharedQueue`), in the database with no owner
 * until an instance with free slots claims it (queue-puller.ts). Admission, the runner and the
 * queue status ask this instead of branching on the mode.
 */
import type { PlanLimits } from "../../../contract/plans.ts";
import type { BatchRow, JobRow } from "../../../db/schema.ts";
import type { Leases, LeaseTerms } from "../lifecycle/leases.ts";
import type { QueueReads } from "../lifecycle/queue-reads.ts";
import { NO_LEASE } from "../lifecycle/sql.ts";
import type { QueuedJob } from "../scheduling/policy.ts";
import { queuedJob } from "./queued-job.ts";
import type { CompressionReads } from "./reads.ts";
import type { Scheduler } from "./scheduler.ts";

export interface JobQueue {
  /** The lease an admitted job is recorded with. */
  admissionLease(now: number): { leaseOwner: string | null; leaseExpiresAt: Date | null };
  /** Hands on the pending jobs an admission just recorded. */
  admitted(pending: JobRow[], batch: BatchRow, plan: PlanLimits): void;
  /** A job found its batch paused when its turn came: it waits for the resume. */
  waitPaused(job: QueuedJob): Promise<void>;
  /** Its batch paused itself (pause on error): the batch's jobs queued here wait. */
  batchPaused(batchId: string): void;
  /** The user's jobs in work: running here, or on a shared queue held by any instance. */
  inWork(userId: number): Promise<number>;
}

export interface LocalQueueDeps {
  scheduler: Pick<Scheduler, "enqueue" | "nextOrder" | "pauseBatch" | "resumeBatch" | "runningFor">;
  reads: Pick<CompressionReads, "findBatch">;
  lease: LeaseTerms;
}

/** One instance over its own database: it runs what it admits. */
export class LocalQueue implements JobQueue {
  constructor(private readonly deps: LocalQueueDeps) {}

  admissionLease(now: number) {
    // This instance holds the job (renewed by its heartbeat) until it ends it.
    return { leaseOwner: this.deps.lease.owner, leaseExpiresAt: new Date(now + this.deps.lease.ms) };
  }

  admitted(pending: JobRow[], batch: BatchRow, plan: PlanLimits): void {
    const { scheduler } = this.deps;
    scheduler.enqueue(pending.map((row) => queuedJob(row, batch, plan, scheduler.nextOrder())));
  }

  /** The scheduler holds it; the resume that comes through here releases it. */
  async waitPaused(job: QueuedJob): Promise<void> {
    const { scheduler } = this.deps;
    scheduler.pauseBatch(job.batchId);
    scheduler.enqueue([job]);
    // A resume that came in meanwhile found no mark to clear.
    if ((await this.deps.reads.findBatch(job.batchId))?.status !== "paused") scheduler.resumeBatch(job.batchId);
  }

  batchPaused(batchId: string): void {
    this.deps.scheduler.pauseBatch(batchId);
  }

  inWork(userId: number): Promise<number> {
    return Promise.resolve(this.deps.scheduler.runningFor(userId));
  }
}

export interface SharedQueueDeps {
  /** Wakes this instance's pull (a no-op on an instance that runs no jobs). */
  wake: () => void;
  scheduler: Pick<Scheduler, "pauseBatch">;
  leases: Pick<Leases, "release">;
  queue: Pick<QueueReads, "heldPerUser">;
  lease: LeaseTerms;
}

/** Instances sharing the database's queue: any instance with workers runs any job. */
export class SharedQueue implements JobQueue {
  constructor(private readonly deps: SharedQueueDeps) {}

  admissionLease() {
    return NO_LEASE;
  }

  admitted(): void {
    this.deps.wake();
  }

  /** Back to the queue, for whichever instance has room once the batch resumes (through any instance). */
  async waitPaused(job: QueuedJob): Promise<void> {
    await this.deps.leases.release(job.jobId, this.deps.lease.owner);
  }

  batchPaused(batchId: string): void {
    this.deps.scheduler.pauseBatch(batchId);
  }

  /** The user's jobs run on any instance: the database counts them all. */
  async inWork(userId: number): Promise<number> {
    return (await this.deps.queue.heldPerUser([userId])).get(userId) ?? 0;
  }
}

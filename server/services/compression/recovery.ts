/**
 * Recovery (DESIGN §5, ADR 018): unfinished jobs no live instance holds are adopted, at start and
 * when leases lapse; each is queued here again while its original is in the store, or fails.
 */
import { PLANS } from "../../../contract/plans.ts";
import type { Leases, LeaseTerms } from "../lifecycle/leases.ts";
import type { Transitions } from "../lifecycle/transitions.ts";
import { planOf } from "../plan.ts";
import type { QueuedJob } from "../scheduling/policy.ts";
import type { JobEndings } from "./job-endings.ts";
import type { JobFiles } from "./job-files.ts";
import { queuedJob } from "./queued-job.ts";
import type { CompressionReads } from "./reads.ts";
import type { Scheduler } from "./scheduler.ts";

export interface RecoveryDeps {
  reads: Pick<CompressionReads, "findBatch" | "findUserById" | "scoresDue">;
  transitions: Pick<Transitions, "abandon" | "expireAllCompleted">;
  leases: Pick<Leases, "adopt">;
  files: Pick<JobFiles, "has" | "free" | "store">;
  scheduler: Pick<Scheduler, "enqueue" | "nextOrder" | "pauseBatch">;
  endings: Pick<JobEndings, "ended">;
  /** Measures a deferred score in an idle slot (deferred-scores.ts). */
  rescore: (jobId: string, pixels: number) => void;
  lease: LeaseTerms;
  now: () => number;
  /** Other instances may share the database (libsql://, http(s)://): at start only lapsed leases are adopted. */
  sharedDatabase: boolean;
  /** Instances share its queue: unowned jobs and lapsed leases are the pull's (queue-puller.ts). */
  sharedQueue: boolean;
}

export class Recovery {
  constructor(private readonly deps: RecoveryDeps) {}

  /**
   * Adopts unfinished jobs no live instance holds (ADR 018): ones whose lease lapsed (their
   * instance died or stalled), or with `all` every unfinished job (a lone instance restarting
   * over its own database). Each adopted job whose original is still in the store is queued here
   * again; one whose original is gone fails with RESTART_MESSAGE and gives its unit back.
   */
  async adoptOrphans(all = false): Promise<{ resumed: number; failed: number }> {
    const { reads, files, scheduler, lease, now } = this.deps;
    const rows = await this.deps.leases.adopt(lease.owner, now() + lease.ms, { all });
    const lost: string[] = [];
    const queued: QueuedJob[] = [];
    for (const row of rows) {
      const batch = await reads.findBatch(row.batchId);
      if (!batch || !await files.has(row.id, "original")) {
        lost.push(row.id);
        continue;
      }
      const user = await reads.findUserById(row.userId);
      queued.push(queuedJob(row, batch, user ? planOf(user, now()) : PLANS.free, scheduler.nextOrder()));
      if (batch.status === "paused") scheduler.pauseBatch(batch.id);
    }
    const abandoned = await this.deps.transitions.abandon(lost);
    this.deps.endings.ended(lost);
    await files.free(abandoned);
    scheduler.enqueue(queued);
    return { resumed: queued.length, failed: lost.length };
  }

  /**
   * At start. Unfinished jobs are adopted (all of them on a database only this process uses, else
   * those whose lease lapsed): resumed when their originals are still in the store (file, S3),
   * failed with RESTART_MESSAGE and refunded when not (memory). With the memory store the
   * previous process's completed results are gone too, so they are marked expired.
   */
  async recoverAfterRestart(): Promise<{ resumed: number; failed: number }> {
    const { sharedDatabase, sharedQueue } = this.deps;
    // On a shared queue unowned jobs and lapsed leases are what the pull takes: nothing to adopt here.
    const outcome = sharedQueue ? { resumed: 0, failed: 0 } : await this.adoptOrphans(!sharedDatabase);
    if (this.deps.files.store.kind === "memory") {
      await this.deps.transitions.expireAllCompleted();
    } else if (!sharedDatabase) {
      // Deferred scores the previous process had not measured yet: measured here, when idle.
      for (const row of await this.deps.reads.scoresDue()) this.deps.rescore(row.id, row.pixels);
    }
    return outcome;
  }
}

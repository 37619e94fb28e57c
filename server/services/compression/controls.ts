/** Batch and job controls (spec §4): delete a job, pause, resume and cancel a batch, each through one transition. */
import {
  type Batch,
  type BatchStatus,
  canCancelBatch,
  CANCELLABLE_BATCH_STATUSES,
  canPauseBatch,
  canResumeBatch,
} from "../../../contract/jobs.ts";
import { DomainError } from "../../domain-error.ts";
import type { Transitions } from "../lifecycle/transitions.ts";
import type { JobEndings } from "./job-endings.ts";
import type { JobFiles } from "./job-files.ts";
import { ownedBatch, ownedJob } from "./owned.ts";
import type { Queries } from "./queries.ts";
import type { CompressionReads } from "./reads.ts";
import type { Scheduler } from "./scheduler.ts";

export interface ControlsDeps {
  reads: Pick<CompressionReads, "findJobOfUser" | "findBatchOfUser">;
  transitions: Pick<Transitions, "deleteJob" | "pauseBatch" | "resumeBatch" | "cancelBatch">;
  /** The work queued or running here, dropped, aborted, held or released. */
  scheduler: Pick<Scheduler, "dropQueued" | "abort" | "isRunning" | "pauseBatch" | "resumeBatch">;
  endings: Pick<JobEndings, "ended">;
  files: Pick<JobFiles, "free">;
  /** The batch as the control answers it. */
  queries: Pick<Queries, "batch">;
}

export class Controls {
  constructor(private readonly deps: ControlsDeps) {}

  /** Deletes a job and its bytes at once; an unfinished job is aborted and its quota returned. */
  async deleteJob(userId: number, jobId: string): Promise<void> {
    const { scheduler } = this.deps;
    const row = await ownedJob(this.deps.reads, userId, jobId);
    scheduler.dropQueued((j) => j.jobId === row.id);
    await scheduler.abort(row.id);
    const deleted = await this.deps.transitions.deleteJob(row);
    this.deps.endings.ended([row.id]);
    await this.deps.files.free(deleted);
  }

  async pauseBatch(userId: number, batchId: string): Promise<Batch> {
    const batch = await this.#batchThat(canPauseBatch, "Only a processing batch can be paused", userId, batchId);
    if (await this.deps.transitions.pauseBatch(batch.id)) this.deps.scheduler.pauseBatch(batch.id);
    return this.deps.queries.batch(userId, batch.id);
  }

  async resumeBatch(userId: number, batchId: string): Promise<Batch> {
    const batch = await this.#batchThat(canResumeBatch, "Only a paused batch can be resumed", userId, batchId);
    if (await this.deps.transitions.resumeBatch(batch.id)) this.deps.scheduler.resumeBatch(batch.id);
    return this.deps.queries.batch(userId, batch.id);
  }

  /** Cancels a batch: pending work is dropped, running work aborted, completed results kept. */
  async cancelBatch(userId: number, batchId: string): Promise<Batch> {
    const { scheduler } = this.deps;
    const refusal = "Only an unfinished batch can be cancelled";
    const batch = await this.#batchThat(canCancelBatch, refusal, userId, batchId);
    const cancelled = await this.deps.transitions.cancelBatch(batch.id, CANCELLABLE_BATCH_STATUSES);
    if (cancelled === null) throw new DomainError("conflict", `${refusal}; this one is ${batch.status}`);
    // The database says cancelled first: a run that finishes meanwhile finds its job ended and drops its result.
    scheduler.dropQueued((j) => j.batchId === batch.id);
    const { ended } = cancelled;
    await Promise.all(ended.filter((id) => scheduler.isRunning(id)).map((id) => scheduler.abort(id)));
    scheduler.resumeBatch(batch.id); // forget the pause mark
    this.deps.endings.ended(ended);
    await this.deps.files.free(cancelled);
    return this.deps.queries.batch(userId, batch.id);
  }

  /** The user's batch (not_found otherwise), if its status `allows` the control (a conflict with `refusal` otherwise). */
  async #batchThat(allows: (s: BatchStatus) => boolean, refusal: string, userId: number, batchId: string) {
    const batch = await ownedBatch(this.deps.reads, userId, batchId);
    if (!allows(batch.status)) throw new DomainError("conflict", `${refusal}; this one is ${batch.status}`);
    return batch;
  }
}

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
import { ownedBatch, ownedJob, type Queries } from "./queries.ts";
import type { CompressionCore } from "./core.ts";

export class Controls {
  #c: CompressionCore;

  #queries: Queries;

  constructor(core: CompressionCore, queries: Queries) {
    this.#c = core;
    this.#queries = queries;
  }

  /** Deletes a job and its bytes at once; an unfinished job is aborted and its quota returned. */
  async deleteJob(userId: number, jobId: string): Promise<void> {
    const row = await ownedJob(this.#c.db, userId, jobId);
    this.#c.scheduler.dropQueued((j) => j.jobId === row.id);
    await this.#c.scheduler.abort(row.id);
    const deleted = await this.#c.transitions.deleteJob(row);
    this.#c.endings.ended([row.id]);
    await this.#c.files.free(deleted);
  }

  async pauseBatch(userId: number, batchId: string): Promise<Batch> {
    const batch = await this.#batchThat(canPauseBatch, "Only a processing batch can be paused", userId, batchId);
    if (await this.#c.transitions.pauseBatch(batch.id)) this.#c.scheduler.pauseBatch(batch.id);
    return this.#queries.batchView(userId, batch.id);
  }

  async resumeBatch(userId: number, batchId: string): Promise<Batch> {
    const batch = await this.#batchThat(canResumeBatch, "Only a paused batch can be resumed", userId, batchId);
    if (await this.#c.transitions.resumeBatch(batch.id)) this.#c.scheduler.resumeBatch(batch.id);
    return this.#queries.batchView(userId, batch.id);
  }

  /** Cancels a batch: pending work is dropped, running work aborted, completed results kept. */
  async cancelBatch(userId: number, batchId: string): Promise<Batch> {
    const refusal = "Only an unfinished batch can be cancelled";
    const batch = await this.#batchThat(canCancelBatch, refusal, userId, batchId);
    const cancelled = await this.#c.transitions.cancelBatch(batch.id, CANCELLABLE_BATCH_STATUSES);
    if (cancelled === null) throw new DomainError("conflict", `${refusal}; this one is ${batch.status}`);
    // The database says cancelled first: a run that finishes meanwhile finds its job ended and drops its result.
    this.#c.scheduler.dropQueued((j) => j.batchId === batch.id);
    const { ended } = cancelled;
    await Promise.all(ended.filter((id) => this.#c.scheduler.isRunning(id)).map((id) => this.#c.scheduler.abort(id)));
    this.#c.scheduler.resumeBatch(batch.id); // forget the pause mark
    this.#c.endings.ended(ended);
    await this.#c.files.free(cancelled);
    return this.#queries.batchView(userId, batch.id);
  }

  /** The user's batch (not_found otherwise), if its status `allows` the control (a conflict with `refusal` otherwise). */
  async #batchThat(allows: (s: BatchStatus) => boolean, refusal: string, userId: number, batchId: string) {
    const batch = await ownedBatch(this.#c.db, userId, batchId);
    if (!allows(batch.status)) throw new DomainError("conflict", `${refusal}; this one is ${batch.status}`);
    return batch;
  }
}

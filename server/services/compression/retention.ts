/**
 * Retention (DESIGN §5, §8): the result TTL, enforced by the app on every store backend (backends
 * have no TTL of their own, ADR 014), and recovery at start.
 */
import { PLANS } from "../../../contract/plans.ts";
import * as q from "../../../db/queries/jobs.ts";
import { findUserById } from "../../../db/queries/users.ts";
import { planOf } from "../plan.ts";
import { queuedJob } from "./admission.ts";
import type { QueuedJob } from "../scheduling/policy.ts";
import { measuringJobIds } from "./runner.ts";
import { sweepStoredBefore } from "../../store/mod.ts";
import type { CompressionCore } from "./core.ts";

/** A stored object no live job claims is removed once it is this much older than the TTL. */
const STRAY_GRACE_MS = 10 * 60_000;

export class Retention {
  #c: CompressionCore;

  #rescore: (jobId: string, pixels: number) => void;
  /** The progress last stored per running job (flushProgress writes only what changed). */
  #flushed = new Map<string, number>();

  constructor(core: CompressionCore, rescore: (jobId: string, pixels: number) => void) {
    this.#c = core;
    this.#rescore = rescore;
  }

  /** Marks completed jobs whose time is up expired (one transition), then frees their bytes. */
  async sweepExpired(): Promise<number> {
    const due = (await q.dueToExpire(this.#c.db, new Date(this.#c.now()))).map((r) => r.id);
    await this.#c.files.free(await this.#c.transitions.expire(due));
    return due.length;
  }

  /**
   * Deletes stored objects older than the TTL (plus a grace) that no live job claims: bytes a
   * crash left between storing and recording, or a delete that failed. Answers the keys removed.
   */
  async sweepStrays(storedBefore = new Date(Date.now() - this.#c.ttlMs - STRAY_GRACE_MS)): Promise<string[]> {
    const jobOf = (key: string) => key.split("/")[1] ?? "";
    return await sweepStoredBefore(this.#c.files.store, {
      storedBefore,
      keep: (key) => q.needsBytes(this.#c.db, jobOf(key)),
    });
  }

  /**
   * Adopts unfinished jobs no live instance holds (ADR 018): ones whose lease lapsed (their
   * instance died or stalled), or with `all` every unfinished job (a lone instance restarting
   * over its own database). Each adopted job whose original is still in the store is queued here
   * again; one whose original is gone fails with RESTART_MESSAGE and gives its unit back.
   */
  async adoptOrphans(all = false): Promise<{ resumed: number; failed: number }> {
    const c = this.#c;
    const rows = await c.leases.adopt(c.instanceId, c.now() + c.leaseMs, { all });
    const lost: string[] = [];
    const queued: QueuedJob[] = [];
    for (const row of rows) {
      const batch = await q.findBatch(c.db, row.batchId);
      if (!batch || !await c.files.has(row.id, "original")) {
        lost.push(row.id);
        continue;
      }
      const user = await findUserById(c.db, row.userId);
      queued.push(queuedJob(c, row, batch, user ? planOf(user, c.now()) : PLANS.free));
      if (batch.status === "paused") c.scheduler.pauseBatch(batch.id);
    }
    const abandoned = await c.transitions.abandon(lost);
    c.endings.ended(lost);
    await c.files.free(abandoned);
    c.scheduler.enqueue(queued);
    return { resumed: queued.length, failed: lost.length };
  }

  /**
   * At start. Unfinished jobs are adopted (all of them on a database only this process uses, else
   * those whose lease lapsed): resumed when their originals are still in the store (file, S3),
   * failed with RESTART_MESSAGE and refunded when not (memory). With the memory store the
   * previous process's completed results are gone too, so they are marked expired.
   */
  async recoverAfterRestart(
    sharedDatabase: boolean,
    sharedQueue = false,
  ): Promise<{ resumed: number; failed: number }> {
    // On a shared queue unowned jobs and lapsed leases are what the pull takes: nothing to adopt here.
    const outcome = sharedQueue ? { resumed: 0, failed: 0 } : await this.adoptOrphans(!sharedDatabase);
    if (this.#c.files.store.kind === "memory") {
      await this.#c.transitions.expireAllCompleted();
    } else if (!sharedDatabase) {
      // Deferred scores the previous process had not measured yet: measured here, when idle.
      for (const row of await q.scoresDue(this.#c.db)) this.#rescore(row.id, row.pixels);
    }
    return outcome;
  }

  /**
   * Renews this instance's leases on the jobs it holds and records their progress; a job found
   * no longer ours (adopted elsewhere after our lease lapsed) is dropped from the queue or aborted.
   */
  async heartbeat(): Promise<void> {
    const c = this.#c;
    const held = c.scheduler.heldIds();
    const measuring = measuringJobIds(c.scheduler.runningBackgroundIds());
    const ours = await c.leases.heartbeat(c.instanceId, held, c.now() + c.leaseMs, c.progress, measuring);
    const lost = new Set(held.filter((id) => !ours.has(id)));
    if (lost.size === 0) return;
    c.scheduler.dropQueued((j) => lost.has(j.jobId));
    for (const id of lost) void c.scheduler.abort(id);
  }

  /**
   * Stores the progress that changed since the last flush: on a shared database a poll may reach
   * an instance that does not run the job, and reads it there (between heartbeats, which store it too).
   */
  async flushProgress(): Promise<void> {
    const changed = new Map([...this.#c.progress].filter(([id, p]) => this.#flushed.get(id) !== p));
    for (const id of this.#flushed.keys()) if (!this.#c.progress.has(id)) this.#flushed.delete(id);
    if (changed.size === 0) return;
    await this.#c.leases.recordProgress(this.#c.instanceId, changed);
    for (const [id, p] of changed) this.#flushed.set(id, p);
  }

  /** On shutdown: the jobs still held here go back to pending for another instance (or the next start). */
  async releaseAll(): Promise<void> {
    const c = this.#c;
    for (const id of c.scheduler.heldIds()) await c.leases.release(id, c.instanceId).catch(() => {});
  }
}

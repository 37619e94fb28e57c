/**
 * Keeps this instance's leases (ADR 018): renews them on the jobs it holds, stores its runs'
 * progress for polls other instances answer, and gives its jobs back on shutdown.
 */
import type { Leases, LeaseTerms } from "../lifecycle/leases.ts";
import { measuringJobIds } from "./deferred-scores.ts";
import type { Scheduler } from "./scheduler.ts";

export interface LeaseKeeperDeps {
  leases: Pick<Leases, "heartbeat" | "recordProgress" | "release">;
  /** The work held here: what the leases cover, and what is dropped when one is lost. */
  scheduler: Pick<Scheduler, "heldIds" | "runningBackgroundIds" | "dropQueued" | "abort">;
  /** Live progress of the runs here (runner.ts). */
  progress: ReadonlyMap<string, number>;
  lease: LeaseTerms;
  now: () => number;
}

export class LeaseKeeper {
  /** The progress last stored per running job (flushProgress writes only what changed). */
  #flushed = new Map<string, number>();

  constructor(private readonly deps: LeaseKeeperDeps) {}

  /**
   * Renews this instance's leases on the jobs it holds and records their progress; a job found
   * no longer ours (adopted elsewhere after our lease lapsed) is dropped from the queue or aborted.
   */
  async heartbeat(): Promise<void> {
    const { scheduler, lease, now } = this.deps;
    const held = scheduler.heldIds();
    const measuring = measuringJobIds(scheduler.runningBackgroundIds());
    const ours = await this.deps.leases.heartbeat(lease.owner, held, now() + lease.ms, this.deps.progress, measuring);
    const lost = new Set(held.filter((id) => !ours.has(id)));
    if (lost.size === 0) return;
    scheduler.dropQueued((j) => lost.has(j.jobId));
    for (const id of lost) void scheduler.abort(id);
  }

  /**
   * Stores the progress that changed since the last flush: on a shared database a poll may reach
   * an instance that does not run the job, and reads it there (between heartbeats, which store it too).
   */
  async flushProgress(): Promise<void> {
    const { progress } = this.deps;
    const changed = new Map([...progress].filter(([id, p]) => this.#flushed.get(id) !== p));
    for (const id of this.#flushed.keys()) if (!progress.has(id)) this.#flushed.delete(id);
    if (changed.size === 0) return;
    await this.deps.leases.recordProgress(this.deps.lease.owner, changed);
    for (const [id, p] of changed) this.#flushed.set(id, p);
  }

  /** On shutdown: the jobs still held here go back to pending for another instance (or the next start). */
  async releaseAll(): Promise<void> {
    const { scheduler, lease } = this.deps;
    for (const id of scheduler.heldIds()) await this.deps.leases.release(id, lease.owner).catch(() => {});
  }
}

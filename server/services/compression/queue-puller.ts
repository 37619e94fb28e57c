/**
 * The shared queue (ADR 018): with several instances on one database, admission only records a
 * job (no owner); every instance that runs jobs pulls unclaimed ones into its scheduler while it
 * has free slots: on a poll (every `pollMs`), at once after its own admissions, and when a slot
 * frees. The pull applies the one scheduling policy (scheduling/policy.ts) to the jobs the
 * database offers, with every user's jobs in work on any instance; each job is taken with one
 * conditional UPDATE (Leases.claim) that also enforces the user's concurrency over all
 * instances. A lapsed lease makes a job claimable again, so the jobs of an
 * instance that died spread over the live ones. An idle instance also measures deferred scores
 * that the instance which ran them has not measured within a lease.
 */
import { type PlanLimits, PLANS } from "../../../contract/plans.ts";
import { planOf } from "../plan.ts";
import type { Leases, LeaseTerms } from "../lifecycle/leases.ts";
import type { QueueReads } from "../lifecycle/queue-reads.ts";
import { nextJob } from "../scheduling/policy.ts";
import type { Logger } from "../../log.ts";
import { claimableJob } from "./queued-job.ts";
import type { CompressionReads } from "./reads.ts";
import type { Scheduler } from "./scheduler.ts";

/** How many unclaimed jobs one pull looks at (oldest first) to order them by plan and priority. */
const LOOK_AHEAD = 200;

export const DEFAULT_POLL_MS = 300;

export interface QueuePullerDeps {
  /** This instance's slots: what is free, and where claimed jobs go. */
  scheduler: Pick<
    Scheduler,
    "slots" | "runningCount" | "slotsInUse" | "queuedCount" | "backgroundCount" | "enqueue" | "nextOrder"
  >;
  queue: Pick<QueueReads, "claimable" | "heldPerUser" | "scoresUnclaimed">;
  reads: Pick<CompressionReads, "findUsersByIds">;
  leases: Pick<Leases, "claim" | "release" | "claimScore">;
  lease: LeaseTerms;
  now: () => number;
  /** Measures a claimed score in an idle slot (deferred-scores.ts). */
  rescore: (jobId: string, pixels: number) => void;
  log: Logger;
}

export class QueuePuller {
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<void> | null = null;
  #again = false;
  #closed = false;
  /** When this instance last claimed a job of each user (the policy's round-robin tie-break). */
  #lastServed = new Map<number, number>();
  #tick = 0;
  /** When this instance last looked for unmeasured scores (a scan of completed jobs: once a lease). */
  #scoresCheckedAt = -Infinity;

  constructor(private readonly deps: QueuePullerDeps) {}

  start(pollMs: number): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.wake(), pollMs);
    this.wake();
  }

  /** Pulls now (or once more right after the pull under way). */
  wake(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.pull().catch((error) => this.deps.log.error("pulling queued jobs failed", { error }));
      } while (this.#again && !this.#closed);
    })().finally(() => (this.#running = null));
  }

  /** Stops pulling; resolves once a pull under way has ended (its claims are in the scheduler then). */
  async stop(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** One pull: claims up to the free slots' worth of jobs; when idle, one due score. Answers the jobs claimed. */
  async pull(): Promise<number> {
    const { scheduler: s, queue, leases, lease, now } = this.deps;
    let free = s.slots - s.slotsInUse - s.queuedCount;
    if (free <= 0 || this.#closed) return 0;
    const candidates = await queue.claimable(LOOK_AHEAD);
    let claimed = 0;
    if (candidates.length > 0) {
      const plans = new Map<number, PlanLimits>();
      const ids = [...new Set(candidates.map((j) => j.userId))];
      for (const user of await this.deps.reads.findUsersByIds(ids)) plans.set(user.id, planOf(user, now()));
      for (const id of ids) if (!plans.has(id)) plans.set(id, PLANS.free);
      const inWork = await queue.heldPerUser([...plans.keys()]);
      const state = { inWork, lastServed: this.#lastServed, paused: new Set<string>() };
      const left = candidates.map((j) => claimableJob(j, plans.get(j.userId)!));
      while (free > 0 && !this.#closed) {
        const job = nextJob(left, state);
        if (!job) break;
        left.splice(left.indexOf(job), 1);
        const row = await leases.claim(job.jobId, lease.owner, now() + lease.ms, job.userLimit);
        if (!row) continue; // another instance took it, or its user is at the limit now
        inWork.set(job.userId, (inWork.get(job.userId) ?? 0) + 1);
        this.#lastServed.set(job.userId, ++this.#tick);
        free--;
        claimed++;
        if (this.#closed) {
          await leases.release(row.id, lease.owner);
          break;
        }
        s.enqueue([{ ...job, order: s.nextOrder() }]);
      }
    }
    const idle = claimed === 0 && s.runningCount === 0 && s.queuedCount === 0 && s.backgroundCount === 0;
    if (idle && !this.#closed && now() - this.#scoresCheckedAt >= lease.ms) {
      // Idle: a score left by an instance that died or is busy.
      this.#scoresCheckedAt = now();
      for (const due of await queue.scoresUnclaimed(now() - lease.ms, 1)) {
        if (await leases.claimScore(due.id, lease.owner, now() + lease.ms)) this.deps.rescore(due.id, due.pixels);
      }
    }
    return claimed;
  }
}

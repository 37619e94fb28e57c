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
import { encodedFormats } from "../../../codecs/mod.ts";
import { parseStoredSettings } from "../../../contract/settings.ts";
import { type PlanLimits, PLANS } from "../../../contract/plans.ts";
import { inArray } from "drizzle-orm";
import { users } from "../../../db/schema.ts";
import { planOf } from "../plan.ts";
import type { CompressionCore } from "./core.ts";
import type { ClaimableJob } from "../lifecycle/queue-reads.ts";
import { BATCH_PRIORITY_RANK, concurrencyOf, nextJob, type QueuedJob } from "../scheduling/policy.ts";

/** How many unclaimed jobs one pull looks at (oldest first) to order them by plan and priority. */
const LOOK_AHEAD = 200;

export const DEFAULT_POLL_MS = 300;

export class QueuePuller {
  #c: CompressionCore;
  #rescore: (jobId: string, pixels: number) => void;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<void> | null = null;
  #again = false;
  #closed = false;
  /** When this instance last claimed a job of each user (the policy's round-robin tie-break). */
  #lastServed = new Map<number, number>();
  #tick = 0;
  /** When this instance last looked for unmeasured scores (a scan of completed jobs: once a lease). */
  #scoresCheckedAt = -Infinity;

  constructor(core: CompressionCore, rescore: (jobId: string, pixels: number) => void) {
    this.#c = core;
    this.#rescore = rescore;
  }

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
        await this.pull().catch((error) => this.#c.log.error("pulling queued jobs failed", { error }));
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
    const c = this.#c;
    const s = c.scheduler;
    let free = s.slots - s.runningCount - s.queuedCount;
    if (free <= 0 || this.#closed) return 0;
    const candidates = await c.queue.claimable(LOOK_AHEAD);
    let claimed = 0;
    if (candidates.length > 0) {
      const plans = new Map<number, PlanLimits>();
      const ids = [...new Set(candidates.map((j) => j.userId))];
      for (const user of await c.db.select().from(users).where(inArray(users.id, ids))) {
        plans.set(user.id, planOf(user, c.now()));
      }
      for (const id of ids) if (!plans.has(id)) plans.set(id, PLANS.free);
      const inWork = await c.queue.heldPerUser([...plans.keys()]);
      const state = { inWork, lastServed: this.#lastServed, paused: new Set<string>() };
      const left = candidates.map((j) => asQueued(j, plans.get(j.userId)!));
      while (free > 0 && !this.#closed) {
        const job = nextJob(left, state);
        if (!job) break;
        left.splice(left.indexOf(job), 1);
        const row = await c.leases.claim(job.jobId, c.instanceId, c.now() + c.leaseMs, job.userLimit);
        if (!row) continue; // another instance took it, or its user is at the limit now
        inWork.set(job.userId, (inWork.get(job.userId) ?? 0) + 1);
        this.#lastServed.set(job.userId, ++this.#tick);
        free--;
        claimed++;
        if (this.#closed) {
          await c.leases.release(row.id, c.instanceId);
          break;
        }
        s.enqueue([{ ...job, order: s.nextOrder() }]);
      }
    }
    const idle = claimed === 0 && s.runningCount === 0 && s.queuedCount === 0 && s.backgroundCount === 0;
    if (idle && !this.#closed && c.now() - this.#scoresCheckedAt >= c.leaseMs) {
      // Idle: a score left by an instance that died or is busy.
      this.#scoresCheckedAt = c.now();
      for (const due of await c.queue.scoresUnclaimed(c.now() - c.leaseMs, 1)) {
        if (await c.leases.claimScore(due.id, c.instanceId, c.now() + c.leaseMs)) this.#rescore(due.id, due.pixels);
      }
    }
    return claimed;
  }
}

/** A job the database offers, as the policy sees it. */
function asQueued(j: ClaimableJob, plan: PlanLimits): QueuedJob {
  return {
    jobId: j.jobId,
    userId: j.userId,
    batchId: j.batchId,
    pixels: j.pixels,
    bytes: Number(j.bytes),
    formats: encodedFormats(parseStoredSettings(j.settingsJson)),
    planPriority: plan.priority,
    batchPriority: BATCH_PRIORITY_RANK[j.batchPriority],
    userLimit: concurrencyOf(plan, j.maxConcurrent),
    // Oldest first: the batch admitted first, then its order.
    order: j.createdAt * 1000 + j.seq,
  };
}

/**
 * The shared queue (ADR 018): with several instances on one database, admission only records a
 * job (no owner); every instance that runs jobs pulls unclaimed ones into its scheduler while it
 * has free slots: on a poll (every `pollMs`), at once after its own admissions, and when a slot
 * frees. The pull keeps the scheduler's policy across instances: Premium first, then the batch's
 * priority, then the user holding the fewest jobs anywhere (fairness), then the oldest; each job
 * is taken with one conditional UPDATE (Lifecycle.claim) that also enforces the user's
 * concurrency over all instances. A lapsed lease makes a job claimable again, so the jobs of an
 * instance that died spread over the live ones. An idle instance also measures deferred scores
 * that the instance which ran them has not measured within a lease.
 */
import { type PlanLimits, PLANS } from "../../../contract/plans.ts";
import { inArray } from "drizzle-orm";
import { users } from "../../../db/schema.ts";
import { planOf } from "../plan.ts";
import type { CompressionCore } from "./core.ts";
import type { ClaimableJob } from "./lifecycle.ts";
import type { QueuedJob } from "./scheduler.ts";

const BATCH_PRIORITY = { low: 0, normal: 1, high: 2 } as const;

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
        await this.pull().catch((err) => console.error("Pulling queued jobs failed:", err));
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
    const candidates = await c.lifecycle.claimable(LOOK_AHEAD);
    let claimed = 0;
    if (candidates.length > 0) {
      const plans = new Map<number, PlanLimits>();
      const ids = [...new Set(candidates.map((j) => j.userId))];
      for (const user of await c.db.select().from(users).where(inArray(users.id, ids))) {
        plans.set(user.id, planOf(user, c.now()));
      }
      for (const id of ids) if (!plans.has(id)) plans.set(id, PLANS.free);
      const held = await c.lifecycle.heldPerUser([...plans.keys()]);
      const limitOf = (j: ClaimableJob) => plans.get(j.userId)!.fixedConcurrency ?? j.maxConcurrent;
      const left = [...candidates];
      while (free > 0 && left.length > 0 && !this.#closed) {
        let best = -1;
        for (let i = 0; i < left.length; i++) {
          const j = left[i]!;
          if ((held.get(j.userId) ?? 0) >= limitOf(j)) continue;
          if (best === -1 || this.#before(j, left[best]!, plans, held)) best = i;
        }
        if (best === -1) break;
        const [job] = left.splice(best, 1) as [ClaimableJob];
        const row = await c.lifecycle.claim(job.jobId, c.instanceId, c.now() + c.leaseMs, limitOf(job));
        if (!row) continue; // another instance took it, or its user is at the limit now
        held.set(job.userId, (held.get(job.userId) ?? 0) + 1);
        free--;
        claimed++;
        const queued: QueuedJob = {
          jobId: row.id,
          userId: row.userId,
          batchId: row.batchId,
          pixels: row.pixels,
          planPriority: plans.get(job.userId)!.priority,
          batchPriority: BATCH_PRIORITY[job.batchPriority],
          userLimit: limitOf(job),
          order: s.nextOrder(),
        };
        if (this.#closed) {
          await c.lifecycle.release(row.id, c.instanceId);
          break;
        }
        s.enqueue([queued]);
      }
    }
    const idle = claimed === 0 && s.runningCount === 0 && s.queuedCount === 0 && s.backgroundCount === 0;
    if (idle && !this.#closed && c.now() - this.#scoresCheckedAt >= c.leaseMs) {
      // Idle: a score left by an instance that died or is busy.
      this.#scoresCheckedAt = c.now();
      for (const due of await c.lifecycle.scoresUnclaimed(c.now() - c.leaseMs, 1)) {
        if (await c.lifecycle.claimScore(due.id, c.instanceId, c.now() + c.leaseMs)) this.#rescore(due.id, due.pixels);
      }
    }
    return claimed;
  }

  #before(a: ClaimableJob, b: ClaimableJob, plans: Map<number, PlanLimits>, held: Map<number, number>): boolean {
    const pa = plans.get(a.userId)!.priority, pb = plans.get(b.userId)!.priority;
    if (pa !== pb) return pa > pb;
    const ba = BATCH_PRIORITY[a.batchPriority], bb = BATCH_PRIORITY[b.batchPriority];
    if (ba !== bb) return ba > bb;
    const ha = held.get(a.userId) ?? 0, hb = held.get(b.userId) ?? 0;
    if (ha !== hb) return ha < hb; // the user holding fewer jobs goes first
    return false; // candidates come oldest first
  }
}

/**
 * Every state change of jobs and batches (DESIGN §8, ADR 017). Each transition is ONE atomic
 * database batch (BEGIN … COMMIT on one connection, one round trip to sqld) that moves the job's
 * status, its quota unit (charged, refunded or released) and the batch's derived status together:
 * a failure anywhere leaves the database as it was before the transition.
 *
 * Why a statement batch and not an interactive `db.transaction`: the local libSQL client gives an
 * interactive transaction its own connection, which for `:memory:` is the only one (every other
 * query during it is refused) and for `file:` is a fresh one without our PRAGMAs; against sqld it
 * holds the write lock across round trips. A batch has none of these problems, so the decisions a
 * transition makes (is this job still running? is there a refund left today?) are written as
 * conditions in SQL and evaluated inside the batch, never read first and acted on later.
 *
 * Bytes in the store are not part of the database: callers free them right after the transition
 * that ends a job commits; bytes a crash leaves behind are found by the retention sweep.
 */
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { BatchStatus } from "../../../contract/jobs.ts";
import { QUOTA_REFUNDS_PER_DAY } from "../../../contract/plans.ts";
import type { Db } from "../../../db/client.ts";
import { batches, type BatchRow, type JobRow, jobs } from "../../../db/schema.ts";

export const RESTART_MESSAGE = "The server restarted before this image was processed; please upload it again";
export const CANCELLED_MESSAGE = "Cancelled before it finished";
export const UNEXPECTED_MESSAGE = "Compression failed unexpectedly; please try again";

/** Units to take from a user's day at admission; `limit` null counts without a limit (Premium). */
export interface QuotaCharge {
  userId: number;
  day: string;
  count: number;
  limit: number | null;
}

/** How a job's unit goes back: within the day's refund cap (the user's failure), or outright (ours). */
type GiveBack = "refund" | "release";

/** What a completed job records (the rest of its row is fixed at admission). */
export type Completion = Pick<
  JobRow,
  | "compressedSize"
  | "quality"
  | "format"
  | "encoder"
  | "width"
  | "height"
  | "keptOriginal"
  | "scoresJson"
  | "scoreDue"
  | "metadataJson"
>;

const UNFINISHED = ["pending", "processing"] as const;

/** A job no instance holds: pending for anyone to adopt, or ended. */
const NO_LEASE = { leaseOwner: null, leaseExpiresAt: null };

/** A job taken by `owner`: pending under its lease until `leaseUntil`. */
const underLease = (owner: string, leaseUntil: number) => ({
  status: "pending" as const,
  progress: 0,
  leaseOwner: owner,
  leaseExpiresAt: new Date(leaseUntil),
});

/** SQL: no live instance holds the job (`table` names the jobs row): no owner, or its lease lapsed by `now`. */
const leaseFree = (now: number, table = "jobs") => {
  const t = sql.raw(table);
  return sql`(${t}.lease_owner IS NULL OR ${t}.lease_expires_at IS NULL OR ${t}.lease_expires_at <= ${now})`;
};

/** SQL: a live instance holds the job now (the complement of `leaseFree`). */
const leaseHeld = (now: number, table = "jobs") => {
  const t = sql.raw(table);
  return sql`${t}.lease_owner IS NOT NULL AND ${t}.lease_expires_at > ${now}`;
};

/** The UTC day a job's unit was charged to (rows from before quota_day fall back to their creation day). */
const jobDay = sql.raw(`coalesce(jobs.quota_day, strftime('%Y-%m-%d', jobs.created_at / 1000, 'unixepoch'))`);

/** A job the shared queue offers: enough to order it and to claim it. */
export interface ClaimableJob {
  jobId: string;
  userId: number;
  batchId: string;
  pixels: number;
  batchPriority: "low" | "normal" | "high";
  maxConcurrent: number;
}

/** The admission charge did not fit the user's daily limit; nothing was written. */
export class QuotaExceeded extends Error {
  constructor() {
    super("The daily quota has no room for these jobs");
    this.name = "QuotaExceeded";
  }
}

/** The marker a job's `charged` holds between the statements of one transition (never seen outside it). */
const GIVING_BACK = 2;

export class Lifecycle {
  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  // ---- statements ------------------------------------------------------------------------------

  /**
   * A batch's status from its jobs, in SQL (mirrors deriveBatchStatus in batch-status.ts):
   * cancelled is final; paused holds while work is left; otherwise it follows the jobs.
   */
  #refreshBatch(batchId: string | SQL): BatchItem<"sqlite"> {
    const has = (cond: SQL) => sql`EXISTS (SELECT 1 FROM jobs j WHERE j.batch_id = ${batchId} AND ${cond})`;
    return this.db.run(sql`
      UPDATE batches SET status = CASE
        WHEN status = 'cancelled' THEN 'cancelled'
        WHEN ${has(sql`j.status IN ('pending', 'processing')`)} THEN
          CASE WHEN status = 'paused' THEN 'paused'
               WHEN ${has(sql`j.status <> 'pending'`)} THEN 'processing'
               ELSE 'pending' END
        WHEN NOT ${has(sql`1`)} THEN status
        WHEN ${has(sql`j.status = 'completed'`)} THEN 'completed'
        ELSE 'error' END
      WHERE id = ${batchId}`);
  }

  /**
   * Gives a job's unit back when `guard` holds for it and it still holds one: marks it, moves the
   * unit in daily_usage, then clears the mark. A refund happens only while the day has refunds
   * left (QUOTA_REFUNDS_PER_DAY); a release always (the server's doing, not the user's).
   * The caller's status update must follow these in the same batch; `#clearMarks` ends it.
   */
  #giveBack(jobIds: string[], kind: GiveBack, guard: SQL): BatchItem<"sqlite">[] {
    if (jobIds.length === 0) return [];
    const out: BatchItem<"sqlite">[] = [];
    for (const id of jobIds) {
      const usage = sql`daily_usage.user_id = jobs.user_id AND daily_usage.day = ${jobDay}`;
      const room = kind === "refund"
        ? sql`EXISTS (SELECT 1 FROM daily_usage WHERE ${usage} AND daily_usage.refunded < ${QUOTA_REFUNDS_PER_DAY})`
        : sql`1`;
      out.push(
        this.db.update(jobs).set({ charged: sql`${GIVING_BACK}` })
          .where(and(eq(jobs.id, id), sql`jobs.charged = 1`, guard, room)),
        this.db.run(sql`
          UPDATE daily_usage SET used = max(0, used - 1)
            ${kind === "refund" ? sql`, refunded = refunded + 1` : sql``}
          WHERE (user_id, day) IN (
            SELECT jobs.user_id, ${jobDay} FROM jobs WHERE jobs.id = ${id} AND jobs.charged = ${GIVING_BACK})`),
      );
    }
    return out;
  }

  #clearMarks(jobIds: string[]): BatchItem<"sqlite">[] {
    if (jobIds.length === 0) return [];
    return [
      this.db.update(jobs).set({ charged: false })
        .where(and(inArray(jobs.id, jobIds), sql`jobs.charged = ${GIVING_BACK}`)),
    ];
  }

  async #run(items: BatchItem<"sqlite">[]): Promise<unknown[]> {
    if (items.length === 0) return [];
    return await this.db.batch(items as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]) as unknown[];
  }

  // ---- transitions -----------------------------------------------------------------------------

  /**
   * admit: a new batch and its jobs, and their quota units, land together or not at all. A unit
   * past the day's limit makes `used` NULL, which the column refuses: the whole batch rolls back
   * and QuotaExceeded is thrown.
   */
  async admit(batch: BatchRow, jobRows: JobRow[], charge: QuotaCharge): Promise<void> {
    const items: BatchItem<"sqlite">[] = [];
    if (charge.count > 0) {
      const next = charge.limit === null
        ? sql`used + ${charge.count}`
        : sql`CASE WHEN used + ${charge.count} <= ${charge.limit} THEN used + ${charge.count} END`;
      items.push(
        this.db.run(sql`INSERT INTO daily_usage (user_id, day, used) VALUES (${charge.userId}, ${charge.day}, 0)
          ON CONFLICT (user_id, day) DO NOTHING`),
        this.db.run(
          sql`UPDATE daily_usage SET used = ${next} WHERE user_id = ${charge.userId} AND day = ${charge.day}`,
        ),
      );
    }
    items.push(
      this.db.insert(batches).values(batch),
      this.db.insert(jobs).values(jobRows),
      this.#refreshBatch(batch.id),
    );
    try {
      await this.#run(items);
    } catch (err) {
      if (isQuotaOverflow(err)) throw new QuotaExceeded();
      throw err;
    }
  }

  /**
   * start (claim): a pending job this instance holds becomes processing under its lease until
   * `leaseUntil`; null when it is no longer pending or no longer ours (cancelled, deleted, adopted
   * by another instance after our lease lapsed), or when its batch is paused (possibly through
   * another instance, after this one queued the job).
   */
  async start(jobId: string, owner: string, leaseUntil: number): Promise<JobRow | null> {
    const [rows] = await this.#run([
      this.db.update(jobs).set({ status: "processing", progress: 0, leaseExpiresAt: new Date(leaseUntil) })
        .where(and(
          eq(jobs.id, jobId),
          eq(jobs.status, "pending"),
          eq(jobs.leaseOwner, owner),
          sql`(SELECT status FROM batches WHERE id = jobs.batch_id) <> 'paused'`,
        )).returning(),
      this.#refreshBatchOfJob(jobId),
    ]) as [JobRow[]];
    return rows[0] ?? null;
  }

  /**
   * complete: a processing job records its result; a kept original (never bigger) gives its unit
   * back within the day's refunds. Null when the job was no longer processing (cancelled or
   * deleted meanwhile): its result must then be dropped.
   */
  async complete(jobId: string, owner: string, done: Completion, ttlMs: number): Promise<JobRow | null> {
    const now = this.now();
    const guard = and(eq(jobs.status, "processing"), eq(jobs.leaseOwner, owner))!;
    const giveBack = done.keptOriginal ? this.#giveBack([jobId], "refund", guard) : [];
    const results = await this.#run([
      ...giveBack,
      ...this.#clearMarks(giveBack.length ? [jobId] : []),
      this.db.update(jobs).set({
        ...done,
        status: "completed",
        progress: 100,
        completedAt: new Date(now),
        expiresAt: new Date(now + ttlMs),
        ...NO_LEASE,
      }).where(and(eq(jobs.id, jobId), guard)).returning(),
      this.#refreshBatchOfJob(jobId),
    ]);
    return (results[results.length - 2] as JobRow[])[0] ?? null;
  }

  /**
   * fail: an unfinished job ends in error with `message` and gives its unit back (a refund, within
   * the day's cap); a batch set to pause on errors pauses. Answers whether the job was unfinished
   * (so the transition applied) and whether its batch paused. With `owner`, only while that
   * instance still holds the job.
   */
  async fail(jobId: string, message: string, owner?: string): Promise<{ failed: boolean; paused: boolean }> {
    const ours = owner === undefined ? sql`1` : sql`jobs.lease_owner = ${owner}`;
    const guard = and(inArray(jobs.status, UNFINISHED), ours)!;
    const results = await this.#run([
      this.db.run(sql`
        UPDATE batches SET status = 'paused'
        WHERE pause_on_error = 1 AND status IN ('pending', 'processing')
          AND id = (SELECT batch_id FROM jobs WHERE id = ${jobId} AND status IN ('pending', 'processing') AND ${ours})`),
      ...this.#giveBack([jobId], "refund", guard),
      ...this.#clearMarks([jobId]),
      this.db.update(jobs).set({ status: "error", errorMessage: message, ...NO_LEASE })
        .where(and(eq(jobs.id, jobId), guard)).returning({ id: jobs.id }),
      this.#refreshBatchOfJob(jobId),
    ]);
    const paused = ((results[0] as { rowsAffected?: number }).rowsAffected ?? 0) > 0;
    const failed = (results[results.length - 2] as unknown[]).length > 0;
    return { failed, paused };
  }

  /**
   * cancel: an unfinished batch is cancelled; its unfinished jobs end in error, each giving its
   * unit back within the day's refunds. Null when the batch could not be cancelled; else the ids
   * of the jobs it ended (their bytes are the caller's to free).
   */
  async cancelBatch(batchId: string, cancellable: readonly BatchStatus[]): Promise<string[] | null> {
    const open = (await this.db.select({ id: jobs.id }).from(jobs)
      .where(and(eq(jobs.batchId, batchId), inArray(jobs.status, UNFINISHED)))).map((r) => r.id);
    const guard = and(
      inArray(jobs.status, UNFINISHED),
      sql`EXISTS (SELECT 1 FROM batches b
      WHERE b.id = ${batchId} AND b.status = 'cancelled')`,
    )!;
    const results = await this.#run([
      this.db.update(batches).set({ status: "cancelled" })
        .where(and(eq(batches.id, batchId), inArray(batches.status, [...cancellable]))).returning({
          id: batches.id,
        }),
      ...this.#giveBack(open, "refund", guard),
      ...this.#clearMarks(open),
      // Jobs admitted after the read above cannot exist: a batch's jobs are created with it.
      this.db.update(jobs).set({ status: "error", errorMessage: CANCELLED_MESSAGE, ...NO_LEASE })
        .where(and(eq(jobs.batchId, batchId), guard)).returning({ id: jobs.id }),
    ]);
    if ((results[0] as unknown[]).length === 0) return null;
    return (results[results.length - 1] as { id: string }[]).map((r) => r.id);
  }

  /** pause: a processing batch is paused (its pending jobs wait). False when it was not processing. */
  async pauseBatch(batchId: string): Promise<boolean> {
    const [rows] = await this.#run([
      this.db.update(batches).set({ status: "paused" })
        .where(and(eq(batches.id, batchId), eq(batches.status, "processing"))).returning({ id: batches.id }),
    ]) as [unknown[]];
    return rows.length > 0;
  }

  /** resume: a paused batch follows its jobs again. False when it was not paused. */
  async resumeBatch(batchId: string): Promise<boolean> {
    const [rows] = await this.#run([
      this.db.update(batches).set({ status: "processing" })
        .where(and(eq(batches.id, batchId), eq(batches.status, "paused"))).returning({ id: batches.id }),
      this.#refreshBatch(batchId),
    ]) as [unknown[]];
    return rows.length > 0;
  }

  /**
   * delete: a job goes, giving back its unit when it had not completed (a refund), and its batch
   * goes with its last job. The caller aborts its run first and frees its bytes after.
   */
  async deleteJob(job: Pick<JobRow, "id" | "batchId">): Promise<void> {
    await this.#run([
      ...this.#giveBack([job.id], "refund", sql`${jobs.status} <> 'completed'`),
      this.db.delete(jobs).where(eq(jobs.id, job.id)),
      // A batch whose last job is gone goes too: no empty "0 of N" rows or ZIP links that answer 409.
      this.db.run(sql`DELETE FROM batches WHERE id = ${job.batchId}
        AND NOT EXISTS (SELECT 1 FROM jobs WHERE batch_id = ${job.batchId})`),
      this.#refreshBatch(job.batchId),
    ]);
  }

  /** expire: completed jobs whose time is up; their bytes are deleted after this commits. */
  async expire(jobIds: string[]): Promise<void> {
    if (jobIds.length === 0) return;
    await this.db.update(jobs).set({ expired: true, scoreDue: false }).where(inArray(jobs.id, jobIds));
  }

  /** expire, at start with a memory store: completed jobs whose bytes the previous process held are gone. */
  async expireAllCompleted(): Promise<void> {
    await this.db.update(jobs).set({ expired: true, scoreDue: false })
      .where(and(eq(jobs.status, "completed"), eq(jobs.expired, false)));
  }

  /** score arrived: a deferred score (or none, when it could not be measured) for a completed job. */
  async scoreArrived(jobId: string, scoresJson: string | null): Promise<void> {
    const patch = scoresJson === null ? { scoreDue: false, ...NO_LEASE } : { scoresJson, scoreDue: false, ...NO_LEASE };
    await this.db.update(jobs).set(patch)
      .where(and(eq(jobs.id, jobId), eq(jobs.status, "completed"), eq(jobs.scoreDue, true)));
  }

  /**
   * abandon: unfinished jobs whose bytes are gone with a previous process fail with
   * RESTART_MESSAGE and their units are released outright (our restart, not the user's doing);
   * a batch paused meanwhile follows its jobs again.
   */
  async abandon(jobIds: string[]): Promise<void> {
    if (jobIds.length === 0) return;
    const guard = inArray(jobs.status, UNFINISHED);
    await this.#run([
      this.db.run(sql`UPDATE batches SET status = 'processing' WHERE status = 'paused'
        AND id IN (SELECT batch_id FROM jobs WHERE id IN ${jobIds} AND status IN ('pending', 'processing'))`),
      ...this.#giveBack(jobIds, "release", guard),
      ...this.#clearMarks(jobIds),
      this.db.update(jobs).set({ status: "error", errorMessage: RESTART_MESSAGE, charged: false, ...NO_LEASE })
        .where(and(inArray(jobs.id, jobIds), guard)),
      ...[...new Set(jobIds)].map((id) => this.#refreshBatchOfJob(id)),
    ]);
  }

  // ---- leases (ADR 018) ------------------------------------------------------------------------

  /** Whether `owner` still holds the unfinished job (read, not a transition). */
  async holds(jobId: string, owner: string): Promise<boolean> {
    const row = await this.db.query.jobs.findFirst({
      where: and(eq(jobs.id, jobId), eq(jobs.leaseOwner, owner), inArray(jobs.status, UNFINISHED)),
      columns: { id: true },
    });
    return row !== undefined;
  }

  /**
   * release: a job this instance holds but will not finish (shutting down, or its run ended with
   * no transition) goes back to pending with no owner, for any instance to adopt at once.
   */
  async release(jobId: string, owner: string): Promise<boolean> {
    const [rows] = await this.#run([
      this.db.update(jobs).set({ status: "pending", progress: 0, ...NO_LEASE })
        .where(and(eq(jobs.id, jobId), eq(jobs.leaseOwner, owner), inArray(jobs.status, UNFINISHED)))
        .returning({ id: jobs.id }),
      this.#refreshBatchOfJob(jobId),
    ]) as [unknown[]];
    return rows.length > 0;
  }

  /**
   * heartbeat: renews this instance's leases on the jobs it holds (queued or running) and on the
   * completed jobs it is `measuring` until `leaseUntil`, and records the running ones' progress.
   * Answers the held ids still ours: a job missing from it was taken from us (cancelled, deleted,
   * or adopted after our lease lapsed).
   */
  async heartbeat(
    owner: string,
    jobIds: string[],
    leaseUntil: number,
    progress: Map<string, number>,
    measuring: string[] = [],
  ) {
    if (jobIds.length === 0 && measuring.length === 0) return new Set<string>();
    const [rows] = await this.#run([
      this.db.update(jobs).set({ leaseExpiresAt: new Date(leaseUntil) })
        .where(and(inArray(jobs.id, jobIds), eq(jobs.leaseOwner, owner), inArray(jobs.status, UNFINISHED)))
        .returning({ id: jobs.id }),
      // A long measurement keeps its score lease, so no other instance measures the job twice.
      this.db.update(jobs).set({ leaseExpiresAt: new Date(leaseUntil) })
        .where(and(
          inArray(jobs.id, measuring),
          eq(jobs.leaseOwner, owner),
          eq(jobs.status, "completed"),
          eq(jobs.scoreDue, true),
        )),
      ...this.#progressItems(owner, progress),
    ]) as [{ id: string }[]];
    return new Set(rows.map((r) => r.id));
  }

  /** progress: records the running jobs' progress, for polls that reach other instances. */
  async recordProgress(owner: string, progress: Map<string, number>): Promise<void> {
    const items = this.#progressItems(owner, progress);
    if (items.length > 0) await this.#run(items);
  }

  #progressItems(owner: string, progress: Map<string, number>): BatchItem<"sqlite">[] {
    return [...progress].map(([id, p]) =>
      this.db.update(jobs).set({ progress: p })
        .where(and(eq(jobs.id, id), eq(jobs.leaseOwner, owner), eq(jobs.status, "processing")))
    );
  }

  /**
   * adopt: unfinished jobs no live instance holds (no owner, or a lease that lapsed at `now`;
   * with `all`, every unfinished job: a lone instance restarting over its own database) become
   * this instance's, pending under a lease until `leaseUntil`. One conditional UPDATE … RETURNING:
   * two instances can never adopt the same job.
   */
  async adopt(owner: string, leaseUntil: number, opts: { all?: boolean; limit?: number } = {}): Promise<JobRow[]> {
    const now = this.now();
    const lapsed = opts.all ? sql`1` : leaseFree(now);
    const [rows] = await this.#run([
      this.db.update(jobs).set(underLease(owner, leaseUntil))
        .where(and(
          inArray(jobs.status, UNFINISHED),
          sql`${jobs.id} IN (SELECT id FROM jobs WHERE status IN ('pending', 'processing') AND ${lapsed}
            ORDER BY created_at, seq LIMIT ${opts.limit ?? 500})`,
        )).returning(),
    ]) as [JobRow[]];
    return rows;
  }

  /**
   * The shared queue (ADR 018, "Instances share the queue"): unfinished jobs no live instance
   * holds (no owner, or a lease that lapsed), in batches that may run; at most `perUser` of each
   * user (so one user's long backlog never hides the others'), Premium subscribers' first, then
   * high batch priority, then the oldest. A read: the caller orders them by the exact plan and
   * takes each with `claim`, which decides.
   */
  async claimable(limit: number, perUser = 16): Promise<ClaimableJob[]> {
    const now = this.now();
    const batchRank = sql.raw(`CASE b.priority WHEN 'high' THEN 2 WHEN 'normal' THEN 1 ELSE 0 END`);
    const rows = await this.db.all<ClaimableJob>(sql`
      SELECT jobId, userId, batchId, pixels, batchPriority, maxConcurrent FROM (
        SELECT j.id AS jobId, j.user_id AS userId, j.batch_id AS batchId, j.pixels AS pixels,
               b.priority AS batchPriority, b.max_concurrent AS maxConcurrent,
               u.subscription_status IN ('active', 'trialing') AS premium, ${batchRank} AS rank,
               j.created_at AS createdAt, j.seq AS seq,
               row_number() OVER (PARTITION BY j.user_id ORDER BY ${batchRank} DESC, j.created_at, j.seq) AS nth
        FROM jobs j JOIN batches b ON b.id = j.batch_id JOIN users u ON u.id = j.user_id
        WHERE j.status IN ('pending', 'processing')
          AND ${leaseFree(now, "j")}
          AND b.status IN ('pending', 'processing')
      ) WHERE nth <= ${perUser}
      ORDER BY premium DESC, rank DESC, createdAt, seq LIMIT ${limit}`);
    return rows;
  }

  /** Jobs per user that live instances hold now (queued there or running): the users' running counts. */
  async heldPerUser(userIds: number[]): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const now = this.now();
    const rows = await this.db.all<{ userId: number; n: number }>(sql`
      SELECT user_id AS userId, count(*) AS n FROM jobs
      WHERE user_id IN ${userIds} AND status IN ('pending', 'processing')
        AND ${leaseHeld(now)}
      GROUP BY user_id`);
    return new Map(rows.map((r) => [Number(r.userId), Number(r.n)]));
  }

  /**
   * claim: one job from the shared queue becomes this instance's (pending under its lease until
   * `leaseUntil`), only while no live instance holds it and its user holds fewer than
   * `userLimit` jobs anywhere. One conditional UPDATE … RETURNING, evaluated inside the database:
   * two instances can never claim the same job, nor together pass a user's concurrency.
   */
  async claim(jobId: string, owner: string, leaseUntil: number, userLimit: number): Promise<JobRow | null> {
    const now = this.now();
    const [rows] = await this.#run([
      this.db.update(jobs).set(underLease(owner, leaseUntil))
        .where(and(
          eq(jobs.id, jobId),
          inArray(jobs.status, UNFINISHED),
          leaseFree(now),
          sql`(SELECT count(*) FROM jobs j2 WHERE j2.user_id = jobs.user_id AND j2.id <> jobs.id
            AND j2.status IN ('pending', 'processing') AND ${leaseHeld(now, "j2")}) < ${userLimit}`,
        )).returning(),
    ]) as [JobRow[]];
    return rows[0] ?? null;
  }

  /**
   * Completed jobs whose deferred score is still due, that no live instance is measuring and that
   * completed before `completedBefore` (the instance that ran them had its chance first).
   */
  async scoresUnclaimed(completedBefore: number, limit: number): Promise<{ id: string; pixels: number }[]> {
    const now = this.now();
    return await this.db.all<{ id: string; pixels: number }>(sql`
      SELECT id, pixels FROM jobs
      WHERE status = 'completed' AND score_due = 1 AND expired = 0 AND completed_at <= ${completedBefore}
        AND ${leaseFree(now)}
      ORDER BY completed_at LIMIT ${limit}`);
  }

  /**
   * claim a score: a completed job whose score is due is measured by `owner` until `leaseUntil`
   * (the lease columns of a completed job mark who measures it). False when another instance
   * measures it now or it is no longer due.
   */
  async claimScore(jobId: string, owner: string, leaseUntil: number): Promise<boolean> {
    const now = this.now();
    const [rows] = await this.#run([
      this.db.update(jobs).set({ leaseOwner: owner, leaseExpiresAt: new Date(leaseUntil) })
        .where(and(
          eq(jobs.id, jobId),
          eq(jobs.status, "completed"),
          eq(jobs.scoreDue, true),
          sql`(${leaseFree(now)} OR jobs.lease_owner = ${owner})`,
        )).returning({ id: jobs.id }),
    ]) as [unknown[]];
    return rows.length > 0;
  }

  #refreshBatchOfJob(jobId: string): BatchItem<"sqlite"> {
    return this.#refreshBatch(sql`(SELECT batch_id FROM jobs WHERE id = ${jobId})`);
  }
}

/** Whether an admission failed because a unit did not fit (the NULL `used` the column refused). */
function isQuotaOverflow(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (/NOT NULL constraint failed: daily_usage\.used/.test(e.message)) return true;
  }
  return false;
}

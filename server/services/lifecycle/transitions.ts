/**
 * Every state transition of jobs and batches (DESIGN §8, ADR 017). Each transition is ONE atomic
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
 * Bytes in the store are not part of the database, so no transition can free them; instead a
 * transition that ends the life of a job's bytes says so in its result (`freeBytes`), decided
 * here beside the guard that decided the job ended, and the caller hands that result to the one
 * place that frees bytes (JobFiles.free) right after the commit. No caller works out on its own
 * which bytes go. Bytes a crash leaves behind are found by the retention sweep.
 *
 * Who holds a job (leases, ADR 018) is leases.ts; what the shared queue offers is queue-reads.ts;
 * the batch-status rule every transition ends with is batch-status.ts.
 */
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { BatchStatus } from "../../../contract/jobs.ts";
import { QUOTA_REFUNDS_PER_DAY } from "../../../contract/plans.ts";
import type { Db } from "../../../db/client.ts";
import { batches, type BatchRow, type JobRow, jobs } from "../../../db/schema.ts";
import { refreshBatch, refreshBatchOfJob } from "./batch-status.ts";
import { batchOption, NO_LEASE, runBatch, UNFINISHED } from "./sql.ts";
import type { JobErrorCode } from "../../domain-error.ts";

export const RESTART_MESSAGE = "The server restarted before this image was processed; please upload it again";
export const CANCELLED_MESSAGE = "Cancelled before it finished";
export const UNEXPECTED_MESSAGE = "Compression failed unexpectedly; please try again";

/** Why a job failed: its code (stored in `error_code`, what the API maps to a status) and the message its card shows. */
export interface JobFailure {
  code: JobErrorCode;
  message: string;
}

/**
 * What a transition decided about stored bytes: the jobs whose bytes must go now that it has
 * committed (their originals, results and thumbnails). Handed to JobFiles.free as it is.
 */
export interface BytesEffect {
  freeBytes: string[];
}

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
export type Completion =
  & Pick<
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
  >
  & Partial<Pick<JobRow, "webSetJson" | "formatChoiceJson" | "heldSize">>;

/** The UTC day a job's unit was charged to (rows from before quota_day fall back to their creation day). */
const jobDay = sql.raw(`coalesce(jobs.quota_day, strftime('%Y-%m-%d', jobs.created_at / 1000, 'unixepoch'))`);

/** The admission charge did not fit the user's daily limit; nothing was written. */
export class QuotaExceeded extends Error {
  constructor() {
    super("The daily quota has no room for these jobs");
    this.name = "QuotaExceeded";
  }
}

/** The marker a job's `charged` holds between the statements of one transition (never seen outside it). */
const GIVING_BACK = 2;

export class Transitions {
  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  // ---- statements ------------------------------------------------------------------------------

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

  #run(items: BatchItem<"sqlite">[]): Promise<unknown[]> {
    return runBatch(this.db, items);
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
      refreshBatch(this.db, batch.id),
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
      refreshBatchOfJob(this.db, jobId),
    ]) as [JobRow[]];
    return rows[0] ?? null;
  }

  /**
   * complete: a processing job records its result; a kept original (never bigger) gives its unit
   * back within the day's refunds. `completed` is null when the job was no longer processing
   * (cancelled or deleted meanwhile): its result must then be dropped, so its bytes go
   * (`freeBytes`). When it is no longer ours but still alive (adopted by another instance after
   * our lease lapsed), the bytes are that instance's now and stay.
   */
  async complete(
    jobId: string,
    owner: string,
    done: Completion,
    ttlMs: number,
  ): Promise<{ completed: JobRow | null } & BytesEffect> {
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
      refreshBatchOfJob(this.db, jobId),
      // What became of the job, read in the same batch: gone (deleted) or in error (cancelled).
      this.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId)),
    ]);
    const completed = (results[results.length - 3] as JobRow[])[0] ?? null;
    const [current] = results[results.length - 1] as { status: JobRow["status"] }[];
    const ended = completed === null && (current === undefined || current.status === "error");
    return { completed, freeBytes: ended ? [jobId] : [] };
  }

  /**
   * fail: an unfinished job ends in error with the failure's code and message and gives its unit back (a refund, within
   * the day's cap); a batch set to pause on errors pauses. Answers whether the job was unfinished
   * (so the transition applied) and whether its batch paused. With `owner`, only while that
   * instance still holds the job. A failed job's bytes go; when the transition did not apply, they
   * stay for whoever ended or holds the job.
   */
  async fail(
    jobId: string,
    failure: JobFailure,
    owner?: string,
  ): Promise<{ failed: boolean; paused: boolean } & BytesEffect> {
    const ours = owner === undefined ? sql`1` : sql`jobs.lease_owner = ${owner}`;
    const guard = and(inArray(jobs.status, UNFINISHED), ours)!;
    const results = await this.#run([
      this.db.run(sql`
        UPDATE batches SET status = 'paused'
        WHERE ${batchOption("pauseOnError")} = 1 AND status IN ('pending', 'processing')
          AND id = (SELECT batch_id FROM jobs WHERE id = ${jobId} AND status IN ('pending', 'processing') AND ${ours})`),
      ...this.#giveBack([jobId], "refund", guard),
      ...this.#clearMarks([jobId]),
      this.db.update(jobs).set({ status: "error", errorMessage: failure.message, errorCode: failure.code, ...NO_LEASE })
        .where(and(eq(jobs.id, jobId), guard)).returning({ id: jobs.id }),
      refreshBatchOfJob(this.db, jobId),
    ]);
    const paused = ((results[0] as { rowsAffected?: number }).rowsAffected ?? 0) > 0;
    const failed = (results[results.length - 2] as unknown[]).length > 0;
    return { failed, paused, freeBytes: failed ? [jobId] : [] };
  }

  /**
   * cancel: an unfinished batch is cancelled; its unfinished jobs end in error, each giving its
   * unit back within the day's refunds. Null when the batch could not be cancelled; else the ids
   * of the jobs it ended (`ended`, for the caller to abort their runs), whose bytes go.
   */
  async cancelBatch(
    batchId: string,
    cancellable: readonly BatchStatus[],
  ): Promise<({ ended: string[] } & BytesEffect) | null> {
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
      this.db.update(jobs).set({
        status: "error",
        errorMessage: CANCELLED_MESSAGE,
        errorCode: "cancelled",
        ...NO_LEASE,
      })
        .where(and(eq(jobs.batchId, batchId), guard)).returning({ id: jobs.id }),
    ]);
    if ((results[0] as unknown[]).length === 0) return null;
    const ended = (results[results.length - 1] as { id: string }[]).map((r) => r.id);
    return { ended, freeBytes: ended };
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
      refreshBatch(this.db, batchId),
    ]) as [unknown[]];
    return rows.length > 0;
  }

  /**
   * delete: a job goes, giving back its unit when it had not completed (a refund), and its batch
   * goes with its last job. The caller aborts its run first; its bytes go with it.
   */
  async deleteJob(job: Pick<JobRow, "id" | "batchId">): Promise<BytesEffect> {
    await this.#run([
      ...this.#giveBack([job.id], "refund", sql`${jobs.status} <> 'completed'`),
      this.db.delete(jobs).where(eq(jobs.id, job.id)),
      // A batch whose last job is gone goes too: no empty "0 of N" rows or ZIP links that are refused.
      this.db.run(sql`DELETE FROM batches WHERE id = ${job.batchId}
        AND NOT EXISTS (SELECT 1 FROM jobs WHERE batch_id = ${job.batchId})`),
      refreshBatch(this.db, job.batchId),
    ]);
    return { freeBytes: [job.id] };
  }

  /** expire: completed jobs whose time is up; their bytes go. */
  async expire(jobIds: string[]): Promise<BytesEffect> {
    if (jobIds.length === 0) return { freeBytes: [] };
    await this.db.update(jobs).set({ expired: true, scoreDue: false }).where(inArray(jobs.id, jobIds));
    return { freeBytes: jobIds };
  }

  /**
   * expire, at start with a memory store: completed jobs whose bytes the previous process held are
   * gone. Nothing to free: they went with that process.
   */
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
   * a batch paused meanwhile follows its jobs again. Whatever bytes of theirs are left go.
   */
  async abandon(jobIds: string[]): Promise<BytesEffect> {
    if (jobIds.length === 0) return { freeBytes: [] };
    const guard = inArray(jobs.status, UNFINISHED);
    await this.#run([
      this.db.run(sql`UPDATE batches SET status = 'processing' WHERE status = 'paused'
        AND id IN (SELECT batch_id FROM jobs WHERE id IN ${jobIds} AND status IN ('pending', 'processing'))`),
      ...this.#giveBack(jobIds, "release", guard),
      ...this.#clearMarks(jobIds),
      this.db.update(jobs)
        .set({ status: "error", errorMessage: RESTART_MESSAGE, errorCode: "restarted", charged: false, ...NO_LEASE })
        .where(and(inArray(jobs.id, jobIds), guard)),
      ...[...new Set(jobIds)].map((id) => refreshBatchOfJob(this.db, id)),
    ]);
    return { freeBytes: jobIds };
  }
}

/** Whether an admission failed because a unit did not fit (the NULL `used` the column refused). */
function isQuotaOverflow(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (/NOT NULL constraint failed: daily_usage\.used/.test(e.message)) return true;
  }
  return false;
}

/**
 * The shared queue's reads (ADR 018, "Instances share the queue"): what the database offers an
 * instance to claim, and how many jobs each user has in work anywhere. Reads only, apart from the
 * transitions and leases that write: what they answer may be stale by the time it is used, so
 * nothing is decided from them alone; the claim (leases.ts) re-checks every condition inside the
 * database.
 */
import { sql } from "drizzle-orm";
import type { BatchPriority } from "../../../contract/settings.ts";
import type { Db } from "../../../db/client.ts";
import { BATCH_PRIORITY_RANK } from "../scheduling/policy.ts";
import { batchOption, leaseFree, leaseHeld } from "./sql.ts";
import { premiumNowSql } from "../billing/effective-status.ts";

/** A job the shared queue offers: enough to order it and to claim it. */
export interface ClaimableJob {
  jobId: string;
  userId: number;
  batchId: string;
  pixels: number;
  bytes: number;
  /** The batch's settings (JSON), for what the job encodes in. */
  settingsJson: string;
  batchPriority: BatchPriority;
  maxConcurrent: number;
  /** Unix ms the job was admitted, and its place in its batch: the oldest first. */
  createdAt: number;
  seq: number;
}

export class QueueReads {
  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  /**
   * The shared queue (ADR 018, "Instances share the queue"): unfinished jobs no live instance
   * holds (no owner, or a lease that lapsed), in batches that may run (not paused); at most
   * `perUser` of each user, that user's next ones (so one user's long backlog never hides the
   * others'). Ordered by the scheduling policy's keys (scheduling/policy.ts): Premium first, then
   * the user with the fewest jobs in work, then the batch's priority, then the oldest. A read: the
   * pull applies the policy itself to what this offers and takes each job with `claim`, which decides.
   * Premium is the user's plan now by `planOf`'s rule (billing/effective-status.ts `premiumNowSql`):
   * a subscription whose period ended without renewal is free work before any webhook says so.
   */
  async claimable(limit: number, perUser = 16): Promise<ClaimableJob[]> {
    const now = this.now();
    const rank = Object.entries(BATCH_PRIORITY_RANK).map(([name, n]) => `WHEN '${name}' THEN ${n}`).join(" ");
    const batchRank = sql`CASE ${batchOption("priority", "b")} ${sql.raw(rank)} END`;
    const rows = await this.db.all<ClaimableJob>(sql`
      SELECT jobId, userId, batchId, pixels, bytes, settingsJson, batchPriority, maxConcurrent, createdAt, seq FROM (
        SELECT j.id AS jobId, j.user_id AS userId, j.batch_id AS batchId, j.pixels AS pixels, j.original_size AS bytes, b.settings_json AS settingsJson,
               ${batchOption("priority", "b")} AS batchPriority, ${batchOption("maxConcurrent", "b")} AS maxConcurrent,
               ${premiumNowSql(now, "u")} AS premium, ${batchRank} AS rank,
               (SELECT count(*) FROM jobs h WHERE h.user_id = j.user_id AND h.status IN ('pending', 'processing')
                 AND ${leaseHeld(now, "h")}) AS inWork,
               j.created_at AS createdAt, j.seq AS seq,
               row_number() OVER (PARTITION BY j.user_id ORDER BY ${batchRank} DESC, j.created_at, j.seq) AS nth
        FROM jobs j JOIN batches b ON b.id = j.batch_id JOIN users u ON u.id = j.user_id
        WHERE j.status IN ('pending', 'processing')
          AND ${leaseFree(now, "j")}
          AND b.status IN ('pending', 'processing')
      ) WHERE nth <= ${perUser}
      ORDER BY premium DESC, inWork, nth, createdAt, seq LIMIT ${limit}`);
    return rows.map((r) => ({ ...r, createdAt: Number(r.createdAt), seq: Number(r.seq) }));
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
}

import { and, count, desc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { batches, type BatchRow, type JobRow, jobs } from "../schema.ts";

// Reads only: every write to jobs and batches is a transition or a lease in server/services/lifecycle/.

export function listJobsForUser(db: Db, userId: number, limit = 500): Promise<JobRow[]> {
  return db.select().from(jobs).where(eq(jobs.userId, userId))
    .orderBy(desc(jobs.createdAt), desc(jobs.seq)).limit(limit);
}

export function findJob(db: Db, id: string): Promise<JobRow | undefined> {
  return db.query.jobs.findFirst({ where: eq(jobs.id, id) });
}

export function findJobOfUser(db: Db, id: string, userId: number): Promise<JobRow | undefined> {
  return db.query.jobs.findFirst({ where: and(eq(jobs.id, id), eq(jobs.userId, userId)) });
}

export function jobsOfBatch(db: Db, batchId: string): Promise<JobRow[]> {
  return db.select().from(jobs).where(eq(jobs.batchId, batchId)).orderBy(jobs.seq);
}

export function findBatchOfUser(db: Db, id: string, userId: number): Promise<BatchRow | undefined> {
  return db.query.batches.findFirst({ where: and(eq(batches.id, id), eq(batches.userId, userId)) });
}

export function findBatch(db: Db, id: string): Promise<BatchRow | undefined> {
  return db.query.batches.findFirst({ where: eq(batches.id, id) });
}

export function findBatches(db: Db, ids: string[]): Promise<BatchRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select().from(batches).where(inArray(batches.id, ids));
}

export function listBatchesForUser(db: Db, userId: number, limit = 100): Promise<BatchRow[]> {
  return db.select().from(batches).where(eq(batches.userId, userId)).orderBy(desc(batches.createdAt)).limit(limit);
}

export function jobsOfBatches(db: Db, batchIds: string[]): Promise<JobRow[]> {
  if (batchIds.length === 0) return Promise.resolve([]);
  return db.select().from(jobs).where(inArray(jobs.batchId, batchIds)).orderBy(jobs.seq);
}

export function unfinishedJobs(db: Db): Promise<JobRow[]> {
  return db.select().from(jobs).where(inArray(jobs.status, ["pending", "processing"]));
}

/** Re-compressions of an upload (its first job) created on `day`. */
export async function countRecompressions(db: Db, sourceJobId: string, day: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(jobs)
    .where(and(eq(jobs.sourceJobId, sourceJobId), eq(jobs.quotaDay, day)));
  return row?.n ?? 0;
}

/** Completed jobs whose result time is up and whose bytes are not yet deleted. */
export function dueToExpire(db: Db, now: Date, limit = 500): Promise<{ id: string }[]> {
  return db.select({ id: jobs.id }).from(jobs)
    .where(and(eq(jobs.status, "completed"), eq(jobs.expired, false), lte(jobs.expiresAt, now))).limit(limit);
}

/** Whether a job still needs its bytes: it exists and is unfinished, or completed and not expired. */
export async function needsBytes(db: Db, id: string): Promise<boolean> {
  const row = await db.query.jobs.findFirst({ where: eq(jobs.id, id), columns: { status: true, expired: true } });
  return row !== undefined && row.status !== "error" && !row.expired;
}

/** Completed jobs still held whose deferred score was never measured. */
export function scoresDue(db: Db): Promise<{ id: string; pixels: number }[]> {
  return db.select({ id: jobs.id, pixels: jobs.pixels }).from(jobs)
    .where(and(eq(jobs.status, "completed"), eq(jobs.scoreDue, true), eq(jobs.expired, false)));
}

/**
 * The user's unfinished jobs that came in through the developer API (their batch names a key).
 * Searched by status (`+user_id` keeps SQLite off the user index): the unfinished jobs are the
 * queue, while a user's history grows without bound.
 */
export async function countUnfinishedApiJobs(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(jobs)
    .innerJoin(batches, eq(jobs.batchId, batches.id))
    .where(and(
      sql`+${jobs.userId} = ${userId}`,
      inArray(jobs.status, ["pending", "processing"]),
      isNotNull(batches.apiKeyId),
    ));
  return row?.n ?? 0;
}

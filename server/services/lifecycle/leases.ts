/**
 * Leases (ADR 018): which instance holds an unfinished job (or measures a completed job's
 * deferred score), until when. They are apart from the transitions because they never end a job
 * nor move its quota unit: they only decide who may work on it, and each is one conditional
 * UPDATE … RETURNING evaluated inside the database, so two instances can never take the same
 * job, nor together pass a user's concurrency. A job taken from an instance (adopted after its
 * lease lapsed, cancelled, deleted) is missing from what the heartbeat answers; the instance then
 * drops it, and its late transitions are refused by their `lease_owner` guards.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../../db/client.ts";
import { type JobRow, jobs } from "../../../db/schema.ts";
import { refreshBatchOfJob } from "./batch-status.ts";
import { leaseFree, leaseHeld, NO_LEASE, runBatch, UNFINISHED } from "./sql.ts";

/** This instance as a lease holder: the owner its leases name, and how long one holds without renewal. */
export interface LeaseTerms {
  owner: string;
  ms: number;
}

/** A job taken by `owner`: pending under its lease until `leaseUntil`. */
const underLease = (owner: string, leaseUntil: number) => ({
  status: "pending" as const,
  progress: 0,
  leaseOwner: owner,
  leaseExpiresAt: new Date(leaseUntil),
});

export class Leases {
  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  #run(items: BatchItem<"sqlite">[]): Promise<unknown[]> {
    return runBatch(this.db, items);
  }

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
      refreshBatchOfJob(this.db, jobId),
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
    progress: ReadonlyMap<string, number>,
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
  async recordProgress(owner: string, progress: ReadonlyMap<string, number>): Promise<void> {
    const items = this.#progressItems(owner, progress);
    if (items.length > 0) await this.#run(items);
  }

  #progressItems(owner: string, progress: ReadonlyMap<string, number>): BatchItem<"sqlite">[] {
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
}

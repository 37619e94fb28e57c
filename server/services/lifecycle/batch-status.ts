/**
 * The batch-status rule (spec §4), written once and only in SQL: a batch's status is a function
 * of its jobs', and every statement batch that moves a job (a transition, a lease release) ends
 * with this statement, so the batch follows its jobs in the same commit. Computing it in
 * TypeScript would mean reading the jobs first and writing later, which another instance can
 * change in between (ADR 017); tests/unit/lifecycle.test.ts pins the rule for every mix of
 * statuses through the transitions.
 */
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../../db/client.ts";

/**
 * A batch's status from its jobs, in SQL: cancelled is final; paused holds while work is left;
 * otherwise it follows the jobs (pending until one started, processing while any is unfinished,
 * then completed when any completed, else error). A batch with no jobs keeps its status.
 */
export function refreshBatch(db: Db, batchId: string | SQL): BatchItem<"sqlite"> {
  const has = (cond: SQL) => sql`EXISTS (SELECT 1 FROM jobs j WHERE j.batch_id = ${batchId} AND ${cond})`;
  return db.run(sql`
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

/** The same rule for the batch of job `jobId`. */
export function refreshBatchOfJob(db: Db, jobId: string): BatchItem<"sqlite"> {
  return refreshBatch(db, sql`(SELECT batch_id FROM jobs WHERE id = ${jobId})`);
}

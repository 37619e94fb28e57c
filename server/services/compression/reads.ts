/**
 * The database reads the compression parts make (db/queries), bound to one database. A part takes
 * the few it uses (`Pick<CompressionReads, "findBatch">`), never the database itself: its reads
 * are then visible in its type, and every write stays a transition or a lease (../lifecycle/).
 */
import type { Db } from "../../../db/client.ts";
import * as jobs from "../../../db/queries/jobs.ts";
import { usedOn } from "../../../db/queries/usage.ts";
import { findUserById, findUsersByIds } from "../../../db/queries/users.ts";

export function compressionReads(db: Db) {
  return {
    findJob: (id: string) => jobs.findJob(db, id),
    findJobOfUser: (id: string, userId: number) => jobs.findJobOfUser(db, id, userId),
    listJobsForUser: (userId: number) => jobs.listJobsForUser(db, userId),
    jobsOfBatch: (batchId: string) => jobs.jobsOfBatch(db, batchId),
    jobsOfBatches: (batchIds: string[]) => jobs.jobsOfBatches(db, batchIds),
    findBatch: (id: string) => jobs.findBatch(db, id),
    findBatchOfUser: (id: string, userId: number) => jobs.findBatchOfUser(db, id, userId),
    findBatches: (ids: string[]) => jobs.findBatches(db, ids),
    listBatchesForUser: (userId: number) => jobs.listBatchesForUser(db, userId),
    countRecompressions: (sourceJobId: string, day: string) => jobs.countRecompressions(db, sourceJobId, day),
    countUnfinishedApiJobs: (userId: number) => jobs.countUnfinishedApiJobs(db, userId),
    dueToExpire: (now: Date) => jobs.dueToExpire(db, now),
    needsBytes: (id: string) => jobs.needsBytes(db, id),
    scoresDue: () => jobs.scoresDue(db),
    usedOn: (userId: number, day: string) => usedOn(db, userId, day),
    findUserById: (id: number) => findUserById(db, id),
    findUsersByIds: (ids: number[]) => findUsersByIds(db, ids),
  };
}

export type CompressionReads = ReturnType<typeof compressionReads>;

/** A user's own jobs and batches (another user's id answers as if it did not exist), and whether a job's bytes are gone. */
import type { BatchRow, JobRow } from "../../../db/schema.ts";
import { DomainError } from "../../domain-error.ts";
import type { CompressionReads } from "./reads.ts";

export async function ownedJob(
  reads: Pick<CompressionReads, "findJobOfUser">,
  userId: number,
  jobId: string,
): Promise<JobRow> {
  const row = await reads.findJobOfUser(jobId, userId);
  if (!row) throw new DomainError("not_found", "No such job");
  return row;
}

export async function ownedBatch(
  reads: Pick<CompressionReads, "findBatchOfUser">,
  userId: number,
  batchId: string,
): Promise<BatchRow> {
  const row = await reads.findBatchOfUser(batchId, userId);
  if (!row) throw new DomainError("not_found", "No such batch");
  return row;
}

/** Whether a job's bytes are gone or due to go at `now` (its record stays). */
export function isExpired(row: JobRow, now: number): boolean {
  return row.expired || (row.expiresAt !== null && row.expiresAt.getTime() <= now);
}

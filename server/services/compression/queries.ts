/** Reads (DESIGN §5): job and batch lists, downloads, previews, ZIPs, queue status and usage. Nothing here writes. */
import {
  type Batch,
  downloadName,
  type Job,
  type PreviewSize,
  type QueueStatus,
  type Usage,
} from "../../../contract/jobs.ts";
import { DEFAULT_MAX_CONCURRENT } from "../../../contract/plans.ts";
import { planOf } from "../plan.ts";
import { allResultsZipName, safeFileName } from "../../../contract/file-names.ts";
import type { CompressSettings } from "../../../contract/settings.ts";
import type { Db } from "../../../db/client.ts";
import type { BatchRow, JobRow, UserRow } from "../../../db/schema.ts";
import * as q from "../../../db/queries/jobs.ts";
import { usedOn } from "../../../db/queries/usage.ts";
import { ApiError } from "../../http-error.ts";
import type { StoredFile } from "./byte-store.ts";
import { nextUtcMidnight, utcDay } from "./quota-day.ts";
import { batchSettings, toBatch, toJob } from "./views.ts";
import { storedSettings } from "../user-settings.ts";
import type { CompressionCore } from "./core.ts";

export interface FileDownload {
  data: Blob;
  mimeType: string;
  name: string;
}

/** The format actually served: a kept original is a JPEG even when WebP was asked for. */
const formatOf = (file: StoredFile): Job["format"] => file.mimeType === "image/webp" ? "webp" : "jpeg";

/** Whether a job's bytes are gone or due to go (its record stays). */
export function isExpired(core: CompressionCore, row: JobRow): boolean {
  return row.expired || (row.expiresAt !== null && row.expiresAt.getTime() <= core.now()) ||
    (row.status === "completed" && !core.store.result(row.id));
}

/** The user's job, or 404 (another user's id answers as if it did not exist). */
export async function ownedJob(db: Db, userId: number, jobId: string): Promise<JobRow> {
  const row = await q.findJobOfUser(db, jobId, userId);
  if (!row) throw new ApiError(404, "No such job");
  return row;
}

export async function ownedBatch(db: Db, userId: number, batchId: string): Promise<BatchRow> {
  const row = await q.findBatchOfUser(db, batchId, userId);
  if (!row) throw new ApiError(404, "No such batch");
  return row;
}

export class Queries {
  #c: CompressionCore;

  constructor(core: CompressionCore) {
    this.#c = core;
  }

  #view(row: JobRow, settingsByBatch: Map<string, CompressSettings>): Job {
    const settings = settingsByBatch.get(row.batchId)!;
    const job = toJob(row, settings, this.#c.progress.get(row.id));
    if (job.status === "completed" && !job.expired && isExpired(this.#c, row)) job.expired = true;
    return job;
  }

  async listJobs(userId: number): Promise<Job[]> {
    const rows = await q.listJobsForUser(this.#c.db, userId);
    // One query for every batch's settings: this runs on every poll.
    const batches = await q.findBatches(this.#c.db, [...new Set(rows.map((r) => r.batchId))]);
    const settings = new Map(batches.map((b) => [b.id, batchSettings(b)]));
    return rows.map((r) => this.#view(r, settings));
  }

  async listBatches(userId: number): Promise<Batch[]> {
    const rows = await q.listBatchesForUser(this.#c.db, userId);
    const jobRows = await q.jobsOfBatches(this.#c.db, rows.map((b) => b.id));
    const settings = new Map(rows.map((b) => [b.id, batchSettings(b)]));
    return rows.map((b) => toBatch(b, jobRows.filter((j) => j.batchId === b.id).map((j) => this.#view(j, settings))));
  }

  async download(userId: number, jobId: string): Promise<FileDownload> {
    const row = await ownedJob(this.#c.db, userId, jobId);
    if (row.status !== "completed") throw new ApiError(409, "The job has not completed yet");
    const file = this.#resultFile(row);
    if (!file) {
      throw new ApiError(410, "This result has expired and was deleted from memory; please upload the image again");
    }
    return file;
  }

  /** A completed job's result under its download name, or null once its bytes are gone. */
  #resultFile(row: JobRow): FileDownload | null {
    const result = isExpired(this.#c, row) ? null : this.#c.store.result(row.id);
    if (!result) return null;
    return { data: result.data, mimeType: result.mimeType, name: downloadName(row.filename, formatOf(result)) };
  }

  /** The original, or with `size: "thumb"` the small upright JPEG made while the job ran. */
  async preview(userId: number, jobId: string, size: PreviewSize = "original"): Promise<FileDownload> {
    const row = await ownedJob(this.#c.db, userId, jobId);
    if (size === "thumb" && row.status !== "completed") {
      throw new ApiError(409, "The thumbnail is made while the image is processed; this one has not completed yet");
    }
    const held = size === "thumb" ? this.#c.store.thumbnail(row.id) : this.#c.store.original(row.id);
    const file = isExpired(this.#c, row) ? null : held;
    if (!file) throw new ApiError(410, "The original has been deleted from memory");
    // Both are JPEGs, whatever the uploaded name said.
    const name = downloadName(row.filename, "jpeg");
    return { data: file.data, mimeType: file.mimeType, name };
  }

  async zipEntries(userId: number, batchId: string): Promise<{ name: string; files: FileDownload[] }> {
    const batch = await ownedBatch(this.#c.db, userId, batchId);
    const files: FileDownload[] = [];
    for (const row of await q.jobsOfBatch(this.#c.db, batch.id)) {
      const file = row.status === "completed" ? this.#resultFile(row) : null;
      if (file) files.push(file);
    }
    if (files.length === 0) throw new ApiError(409, "This batch has no completed images to download");
    return { name: safeFileName(batch.name).replace(/\.(jpe?g|jfif)$/i, ""), files };
  }

  /** Every completed result still held, newest first, for "Download all" as one ZIP. */
  async allResults(userId: number): Promise<{ name: string; files: FileDownload[] }> {
    const files: FileDownload[] = [];
    for (const row of await q.listJobsForUser(this.#c.db, userId)) {
      const file = row.status === "completed" ? this.#resultFile(row) : null;
      if (file) files.push(file);
    }
    if (files.length === 0) throw new ApiError(409, "There are no completed images to download");
    const day = utcDay(this.#c.now());
    return { name: allResultsZipName(day, files.length), files };
  }

  queueStatus(user: UserRow): QueueStatus {
    const plan = planOf(user, this.#c.now());
    const max = plan.fixedConcurrency ?? storedSettings(user).maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
    const current = this.#c.scheduler.runningFor(user.id);
    return { maxConcurrentJobs: max, currentlyProcessing: current, availableSlots: Math.max(0, max - current) };
  }

  async usage(user: UserRow): Promise<Usage> {
    const now = this.#c.now();
    const plan = planOf(user, this.#c.now());
    return {
      used: await usedOn(this.#c.db, user.id, utcDay(now)),
      limit: plan.dailyCompressions,
      resetsAt: nextUtcMidnight(now).toISOString(),
    };
  }

  async batchView(userId: number, batchId: string): Promise<Batch> {
    const batch = await ownedBatch(this.#c.db, userId, batchId);
    const settings = new Map([[batch.id, batchSettings(batch)]]);
    const jobs = (await q.jobsOfBatch(this.#c.db, batch.id)).map((j) => this.#view(j, settings));
    return toBatch(batch, jobs);
  }
}

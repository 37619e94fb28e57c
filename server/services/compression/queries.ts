/** Reads (DESIGN §5): job and batch lists, downloads, previews, ZIPs, queue status and usage. Nothing here writes. */
import {
  type Batch,
  downloadName,
  type Job,
  type PreviewSize,
  type QueueStatus,
  resultFormat,
  type Usage,
} from "../../../contract/jobs.ts";
import { concurrencyOf } from "../scheduling/policy.ts";
import { planOf } from "../plan.ts";
import {
  allResultsZipName,
  distinctEntryNames,
  resultBaseName,
  safeFileName,
  versionName,
} from "../../../contract/file-names.ts";
import { SET_MANIFEST_FILE, SET_PICTURE_FILE, type WebSet } from "../../../contract/web-sets.ts";
import { unzipSync } from "fflate";
import type { SavedSettings } from "../../../contract/settings.ts";
import type { Db } from "../../../db/client.ts";
import type { BatchRow, JobRow, UserRow } from "../../../db/schema.ts";
import * as q from "../../../db/queries/jobs.ts";
import { usedOn } from "../../../db/queries/usage.ts";
import { DomainError } from "../../domain-error.ts";
import { nextUtcMidnight, utcDay } from "./quota-day.ts";
import { batchSettings, toBatch, toJob } from "./views.ts";
import { storedSettings } from "../user-settings.ts";
import type { CompressionCore } from "./core.ts";
import { type JobErrorCode, jobErrorCode } from "../../domain-error.ts";

/**
 * How often a caller waiting for a job reads it when no run on this instance wakes it: only a
 * job run by another instance (a shared queue) needs this.
 */
export const END_FALLBACK_MS = 500;

/** A job that has ended, as the user sees it, and the code it failed with (null: completed, or a row from before codes). */
export interface EndedJob {
  job: Job;
  errorCode: JobErrorCode | null;
}

/** A stored file as a response serves it: streamed from the byte store. */
export interface FileDownload {
  body: ReadableStream<Uint8Array>;
  size: number;
  mimeType: string;
  name: string;
}

/** A ZIP entry, opened only when the ZIP reaches it (null when its bytes went meanwhile). */
export interface ZipFile {
  name: string;
  open(): Promise<ReadableStream<Uint8Array> | null>;
}

/** Which versions a ZIP holds: each photo's latest (the default) or every version held (`?versions=all`). */
export type ZipVersions = "latest" | "all";

/** Jobs grouped by photo (`sourceJobId ?? id`), each photo's versions oldest first. */
export function groupByPhoto(rows: JobRow[]): Map<string, JobRow[]> {
  const photos = new Map<string, JobRow[]>();
  for (const row of [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.seq - b.seq)) {
    const photo = row.sourceJobId ?? row.id;
    photos.set(photo, [...(photos.get(photo) ?? []), row]);
  }
  return photos;
}

/** Whether a job's bytes are gone or due to go (its record stays). */
export function isExpired(core: CompressionCore, row: JobRow): boolean {
  return row.expired || (row.expiresAt !== null && row.expiresAt.getTime() <= core.now());
}

/** The user's job, or not_found (another user's id answers as if it did not exist). */
export async function ownedJob(db: Db, userId: number, jobId: string): Promise<JobRow> {
  const row = await q.findJobOfUser(db, jobId, userId);
  if (!row) throw new DomainError("not_found", "No such job");
  return row;
}

export async function ownedBatch(db: Db, userId: number, batchId: string): Promise<BatchRow> {
  const row = await q.findBatchOfUser(db, batchId, userId);
  if (!row) throw new DomainError("not_found", "No such batch");
  return row;
}

export class Queries {
  #c: CompressionCore;

  constructor(core: CompressionCore) {
    this.#c = core;
  }

  #view(row: JobRow, settingsByBatch: Map<string, SavedSettings>): Job {
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

  /** One of the user's jobs as GET /api/jobs lists it (not_found for another user's). */
  async job(userId: number, jobId: string): Promise<Job> {
    return await this.#jobView(await ownedJob(this.#c.db, userId, jobId));
  }

  async #jobView(row: JobRow): Promise<Job> {
    const batch = await q.findBatch(this.#c.db, row.batchId);
    if (!batch) throw new DomainError("not_found", "No such job");
    return this.#view(row, new Map([[batch.id, batchSettings(batch)]]));
  }

  /**
   * The user's job once it has ended (completed or failed), with its failure's code. Woken by the run that ends it on this
   * instance (JobEndings); a job another instance runs is read every `fallbackMs`. Null when the
   * job is deleted meanwhile, or when `signal` aborts first (the client went away: the job goes on).
   */
  async awaitEnd(
    userId: number,
    jobId: string,
    signal: AbortSignal,
    fallbackMs = END_FALLBACK_MS,
  ): Promise<EndedJob | null> {
    for (;;) {
      // Listen before reading, so an end between the read and the wait is not missed.
      const next = this.#c.endings.next(jobId, fallbackMs, signal);
      const row = await q.findJobOfUser(this.#c.db, jobId, userId).catch((err) => {
        next.cancel();
        throw err;
      });
      if (!row || row.status === "completed" || row.status === "error" || signal.aborted) {
        next.cancel();
        return row && !signal.aborted
          ? { job: await this.#jobView(row), errorCode: jobErrorCode(row.errorCode) }
          : null;
      }
      await next.wait;
    }
  }

  async listBatches(userId: number): Promise<Batch[]> {
    const rows = await q.listBatchesForUser(this.#c.db, userId);
    const jobRows = await q.jobsOfBatches(this.#c.db, rows.map((b) => b.id));
    const settings = new Map(rows.map((b) => [b.id, batchSettings(b)]));
    return rows.map((b) => toBatch(b, jobRows.filter((j) => j.batchId === b.id).map((j) => this.#view(j, settings))));
  }

  async download(userId: number, jobId: string): Promise<FileDownload> {
    const row = await ownedJob(this.#c.db, userId, jobId);
    if (row.status !== "completed") throw new DomainError("conflict", "The job has not completed yet");
    const file = await this.#resultFile(row);
    if (!file) {
      throw new DomainError(
        "gone",
        "This result has expired and was deleted from memory; please upload the image again",
      );
    }
    return file;
  }

  /** A completed job's result under its download name, or null once its bytes are gone. */
  async #resultFile(row: JobRow): Promise<FileDownload | null> {
    if (isExpired(this.#c, row)) return null;
    // A kept original is served from the original itself.
    const result = await this.#c.files.get(row.id, row.keptOriginal ? "original" : "result");
    return result && { ...result, name: this.#resultName(row) };
  }

  /** The download name: the original's base name, `.webp` when converted (a kept original stays a JPEG), `.zip` for a set. */
  #resultName(row: JobRow): string {
    return row.webSetJson ? `${resultBaseName(row.filename)}.zip` : downloadName(row.filename, resultFormat(row));
  }

  /**
   * The ZIP entries of the photos among `rows` (a photo: its first upload, `sourceJobId ?? id`; issue 24
   * item 4), opened one by one while the ZIP streams. By default each photo's latest completed version
   * still held, under the photo's own name; `versions: "all"` gives every held version, each named by
   * its settings (`beach.q70.jpg`). Entry names never get `(2)` suffixes (`distinctEntryNames`).
   */
  async #zipFiles(rows: JobRow[], versions: ZipVersions): Promise<ZipFile[]> {
    const photos = groupByPhoto(rows);
    const held = (row: JobRow) => row.status === "completed" && !isExpired(this.#c, row);
    const chosen: { row: JobRow; photo: string; version: number }[] = [];
    for (const [photo, all] of photos) {
      const numbered = all.map((row, i) => ({ row, photo, version: i + 1 })).filter((v) => held(v.row));
      chosen.push(...(versions === "all" ? numbered : numbered.slice(-1)));
    }
    // Newest first, as the job list shows them.
    chosen.sort((a, b) => b.row.createdAt.getTime() - a.row.createdAt.getTime() || b.row.seq - a.row.seq);
    const settings = new Map(
      (await q.findBatches(this.#c.db, [...new Set(chosen.map((v) => v.row.batchId))])).map((b) => [b.id, b]),
    );
    const names = distinctEntryNames(chosen.map(({ row, photo, version }) => ({
      name: versions === "all"
        ? versionName(row.filename, batchSettings(settings.get(row.batchId)!), resultFormat(row))
        : this.#resultName(row),
      photo,
      uploadedAt: photos.get(photo)![0]!.createdAt,
      position: photos.get(photo)![0]!.seq + 1,
      version,
    })));
    return chosen.flatMap(({ row }, i) =>
      row.webSetJson ? this.#setEntries(row, names[i]!.replace(/\.zip$/, "")) : [{
        name: names[i]!,
        open: async () => (await this.#c.files.get(row.id, row.keptOriginal ? "original" : "result"))?.body ?? null,
      }]
    );
  }

  /**
   * A web set in a ZIP of many photos: its own ZIP's entries under `folder/` (a ZIP inside a ZIP would
   * make people unpack twice). The set's ZIP is read once, when the first of its entries is reached.
   */
  #setEntries(row: JobRow, folder: string): ZipFile[] {
    const set = JSON.parse(row.webSetJson!) as WebSet;
    let entries: Promise<Record<string, Uint8Array> | null> | null = null;
    const unpacked = () =>
      entries ??= this.#c.files.get(row.id, "result").then(async (file) =>
        file && unzipSync(new Uint8Array(await new Response(file.body).arrayBuffer()))
      );
    const names = [...set.files.map((f) => f.file), SET_PICTURE_FILE, SET_MANIFEST_FILE];
    return names.map((name) => ({
      name: `${folder}/${name}`,
      open: async () => {
        const bytes = (await unpacked())?.[`${set.name}/${name}`];
        return bytes ? new Blob([bytes as Uint8Array<ArrayBuffer>]).stream() : null;
      },
    }));
  }

  /** The original, or with `size: "thumb"` the small upright JPEG made while the job ran. */
  async preview(userId: number, jobId: string, size: PreviewSize = "original"): Promise<FileDownload> {
    const row = await ownedJob(this.#c.db, userId, jobId);
    if (size === "thumb" && row.status !== "completed") {
      throw new DomainError(
        "conflict",
        "The thumbnail is made while the image is processed; this one has not completed yet",
      );
    }
    const file = isExpired(this.#c, row)
      ? null
      : await this.#c.files.get(row.id, size === "thumb" ? "thumbnail" : "original");
    if (!file) throw new DomainError("gone", "The original has been deleted from memory");
    // Both are JPEGs, whatever the uploaded name said.
    return { ...file, name: downloadName(row.filename, "jpeg") };
  }

  /** A batch's photos (latest versions, or all with `versions: "all"`), re-compressions made in later batches included. */
  async zipEntries(
    userId: number,
    batchId: string,
    versions: ZipVersions = "latest",
  ): Promise<{ name: string; files: ZipFile[] }> {
    const batch = await ownedBatch(this.#c.db, userId, batchId);
    const own = new Set((await q.jobsOfBatch(this.#c.db, batch.id)).map((r) => r.sourceJobId ?? r.id));
    const rows = (await q.listJobsForUser(this.#c.db, userId)).filter((r) => own.has(r.sourceJobId ?? r.id));
    const files = await this.#zipFiles(rows, versions);
    if (files.length === 0) throw new DomainError("conflict", "This batch has no completed images to download");
    return { name: safeFileName(batch.name).replace(/\.(jpe?g|jfif)$/i, ""), files };
  }

  /** "Download all": each photo's latest result still held (or every version), newest first, as one ZIP. */
  async allResults(userId: number, versions: ZipVersions = "latest"): Promise<{ name: string; files: ZipFile[] }> {
    const files = await this.#zipFiles(await q.listJobsForUser(this.#c.db, userId), versions);
    if (files.length === 0) throw new DomainError("conflict", "There are no completed images to download");
    const day = utcDay(this.#c.now());
    return { name: allResultsZipName(day, files.length, versions === "all"), files };
  }

  async queueStatus(user: UserRow): Promise<QueueStatus> {
    const plan = planOf(user, this.#c.now());
    const max = concurrencyOf(plan, storedSettings(user).maxConcurrent);
    // On a shared queue the user's jobs run on any instance: the database counts them all.
    const current = this.#c.sharedQueue
      ? (await this.#c.queue.heldPerUser([user.id])).get(user.id) ?? 0
      : this.#c.scheduler.runningFor(user.id);
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

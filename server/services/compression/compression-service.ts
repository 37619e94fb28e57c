/**
 * The compression API's logic (DESIGN §3, §5): admission with plan limits and
 * an atomic quota, the scheduler feeding the codec pool, batch controls,
 * in-memory retention, and recovery after a restart.
 */
import {
  type Batch,
  canCancelBatch,
  canPauseBatch,
  canResumeBatch,
  type CompressResponse,
  downloadName,
  type Job,
  type JobStatus,
  type PreviewSize,
  type QueueStatus,
  type Usage,
} from "../../../contract/jobs.ts";
import { DEFAULT_MAX_CONCURRENT, type PlanLimits, PLANS, QUOTA_REFUNDS_PER_DAY } from "../../../contract/plans.ts";
import { planOf } from "../plan.ts";
import { allResultsZipName, safeFileName } from "../../../contract/file-names.ts";
import { type CompressSettings, FREE_RECOMPRESSIONS_PER_IMAGE } from "../../../contract/settings.ts";
import type { Db } from "../../../db/client.ts";
import type { BatchRow, JobRow, UserRow } from "../../../db/schema.ts";
import * as q from "../../../db/queries/jobs.ts";
import { addUsage, refundQuota, releaseQuota, reserveQuota, usedOn } from "../../../db/queries/usage.ts";
import { findUserById } from "../../../db/queries/users.ts";
import { inspectJpeg, isCodecError, peekJpegSize, sniffFormat } from "../../../codecs/mod.ts";
import { ApiError } from "../../http-error.ts";
import { deriveBatchStatus } from "./batch-status.ts";
import type { ByteStore, StoredFile } from "./byte-store.ts";
import type { Compressor } from "./compressor.ts";
import { nextUtcMidnight, utcDay } from "./quota-day.ts";
import { type QueuedJob, Scheduler } from "./scheduler.ts";
import type { UploadForm } from "./upload-form.ts";
import { dailyLimitReached, fileTooLarge, storeFull, tooManyFiles, UploadIntake } from "./upload-intake.ts";
import { batchSettings, toBatch, toJob } from "./views.ts";
import { storedSettings } from "../user-settings.ts";

const BATCH_PRIORITY = { low: 0, normal: 1, high: 2 } as const;
export const RESTART_MESSAGE = "The server restarted before this image was processed; please upload it again";
const CANCELLED_MESSAGE = "Cancelled before it finished";
const UNEXPECTED_MESSAGE = "Compression failed unexpectedly; please try again";

export interface CompressionServiceOptions {
  db: Db;
  compressor: Compressor;
  store: ByteStore;
  resultTtlMs: number;
  now?: () => number;
}

function refuseTargetOffPlan(plan: PlanLimits, settings: CompressSettings): void {
  if (settings.target && !plan.targets) {
    throw new ApiError(403, "target: target size and quality are Premium features");
  }
}

/** One uploaded file, judged alone at admission. */
type FileVerdict = { pixels: number } | { refused: ApiError };

/** A job to create: its original and header pixel count, or the reason it was refused. */
type NewEntry =
  & { name: string; size: number }
  & ({ original: Blob; pixels: number; charged: boolean; sourceJobId?: string } | { refused: string });

/** A refusal's message for the file's own entry, which already shows its name. */
const withoutName = (message: string, name: string) =>
  message.replace(`'${name}': `, "").replace(`'${name}' is `, "This file is ");

export interface FileDownload {
  data: Blob;
  mimeType: string;
  name: string;
}

/** Enough of a file's start to find its frame header behind typical EXIF/ICC segments. */
const HEAD_BYTES = 512 * 1024;

const headOf = async (file: Blob) => new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());

/** The pixel count a JPEG's header declares (0 when the head holds no readable frame header). */
function pixelsOf(head: Uint8Array): number {
  const size = peekJpegSize(head);
  return size ? size.width * size.height : 0;
}

/** The format actually served: a kept original is a JPEG even when WebP was asked for. */
const formatOf = (file: StoredFile): Job["format"] => file.mimeType === "image/webp" ? "webp" : "jpeg";

/**
 * Memory for stored originals and results plus images in work: a 1 GB process
 * less about 225 MB for the runtime, the idle codec workers and the database
 * (measured idle), and less headroom for jobs whose peaks run together. It
 * keeps a 20 × 10 MB upload (about 200 MB held) to one 10 MP image at a time.
 * A lone job always runs, whatever the store holds.
 */
const MEMORY_BUDGET_BYTES = 780 * 1024 * 1024;

export class CompressionService {
  readonly scheduler: Scheduler;
  #db: Db;
  #compressor: Compressor;
  #store: ByteStore;
  #ttlMs: number;
  #now: () => number;
  /** Live progress of running jobs, so polling never waits on a database write. */
  #progress = new Map<string, number>();
  #expiries = new Map<string, number>();
  #accepting = true;

  constructor(opts: CompressionServiceOptions) {
    this.#db = opts.db;
    this.#compressor = opts.compressor;
    this.#store = opts.store;
    this.#ttlMs = opts.resultTtlMs;
    this.#now = opts.now ?? Date.now;
    const jobMemory = opts.compressor.jobMemory;
    this.scheduler = new Scheduler(
      opts.compressor.size,
      (job, signal) => this.#run(job, signal),
      jobMemory && {
        // Uploads and results held in memory leave less room for images in work.
        room: () => MEMORY_BUDGET_BYTES - this.#store.heldBytes,
        cost: (job) => jobMemory(job.pixels),
      },
    );
  }

  /** Bytes the store holds or has promised to uploads in flight. */
  get heldBytes(): number {
    return this.#store.heldBytes;
  }

  // ---- admission -------------------------------------------------------------

  /**
   * Opens an upload before its body is read: refuses at once while shutting
   * down or when the day's quota is used up, and hands back the intake that
   * bounds the body as it streams (upload-intake.ts). Release it on every path.
   */
  async openUpload(user: UserRow): Promise<UploadIntake> {
    if (!this.#accepting) {
      throw new ApiError(503, "The server is restarting; please try again in a minute", { "Retry-After": "60" });
    }
    const plan = planOf(user, this.#now());
    let left: number | null = null;
    if (plan.dailyCompressions !== null) {
      left = Math.max(0, plan.dailyCompressions - await usedOn(this.#db, user.id, utcDay(this.#now())));
      if (left === 0) throw dailyLimitReached(plan, 0, 0);
    }
    return new UploadIntake(plan, left, this.#store.reserve());
  }

  /** Admits a read upload: its bytes are already reserved by `intake`, which it turns into stored files. */
  async admit(user: UserRow, form: UploadForm, intake: UploadIntake): Promise<CompressResponse> {
    const plan = intake.plan;
    const { files, settings } = form;
    refuseTargetOffPlan(plan, settings);
    if (files.length > plan.maxFilesPerUpload) throw tooManyFiles(plan, files.length);
    // Names from users are used (stored, quoted) only in their safe form (contract/file-names.ts).
    const names = files.map((f) => safeFileName(f.name));
    // Each file is judged alone: a refused one gets a failed entry, the others go ahead.
    const verdicts: FileVerdict[] = [];
    for (const [i, file] of files.entries()) {
      verdicts.push(
        file.size > plan.maxFileBytes
          ? { refused: fileTooLarge(plan, names[i], file.size) }
          : this.#checkContent(names[i]!, await headOf(file), plan),
      );
    }
    const accepted = verdicts.flatMap((v, i) => ("pixels" in v ? [i] : []));
    if (accepted.length === 0) throw (verdicts[0] as { refused: ApiError }).refused; // as one refused file answers

    const total = accepted.reduce((sum, i) => sum + files[i]!.size, 0);
    // Room was reserved chunk by chunk while the body arrived; only a body larger than its files needs more.
    if (total > intake.reservation.bytes && !intake.reservation.grow(total - intake.reservation.bytes)) {
      throw storeFull();
    }

    const now = this.#now();
    const day = utcDay(now);
    await this.#chargeQuota(user, plan, day, accepted.length);

    let created;
    try {
      created = await this.#createBatch(
        user,
        plan,
        {
          name: files.length === 1 ? names[0]! : `${files.length} images`,
          settings,
          priority: form.priority,
          maxConcurrent: form.maxConcurrent,
          pauseOnError: form.pauseOnError,
        },
        files.map((file, i) => {
          const verdict = verdicts[i]!;
          return "refused" in verdict
            ? { name: names[i]!, size: file.size, refused: withoutName(verdict.refused.message, names[i]!) }
            : { name: names[i]!, size: file.size, original: file, pixels: verdict.pixels, charged: true };
        }),
        day,
      );
    } catch (err) {
      await releaseQuota(this.#db, user.id, day, accepted.length);
      throw err;
    }
    intake.release(); // the stored files now hold the room the body reserved
    const refused = verdicts.flatMap((v, i) =>
      "refused" in v ? [{ filename: names[i]!, status: v.refused.status, error: v.refused.message }] : []
    );
    return { ...created, refused };
  }

  /**
   * Compresses completed jobs again with new settings from the originals still
   * held, without a new upload. Each image re-uses its first upload's charge: up
   * to FREE_RECOMPRESSIONS_PER_IMAGE times on the day that upload was charged,
   * then it costs a unit like a new one. The old results stay as they are.
   */
  async recompress(
    user: UserRow,
    sources: JobRow[],
    settings: CompressSettings,
    name: string,
  ): Promise<CompressResponse> {
    const plan = planOf(user, this.#now());
    refuseTargetOffPlan(plan, settings);
    const held = sources.filter((row) => row.status === "completed" && !this.#isExpired(row));
    if (held.length === 0) {
      throw new ApiError(410, "The originals are no longer in memory; please upload the images again");
    }
    const day = utcDay(this.#now());
    const entries: NewEntry[] = [];
    const usedToday = new Map<string, number>(); // re-compressions per upload, this one included
    for (const row of held) {
      const original = this.#store.original(row.id)!;
      const rootId = row.sourceJobId ?? row.id;
      const root = rootId === row.id ? row : await q.findJob(this.#db, rootId);
      const count = usedToday.get(rootId) ?? await q.countRecompressions(this.#db, rootId, day);
      usedToday.set(rootId, count + 1);
      const free = root !== undefined && root.charged && root.quotaDay === day && count < FREE_RECOMPRESSIONS_PER_IMAGE;
      entries.push({
        name: row.filename,
        size: original.data.size,
        original: original.data,
        pixels: pixelsOf(await headOf(original.data)),
        charged: !free,
        sourceJobId: rootId,
      });
    }
    const charged = entries.filter((e) => "charged" in e && e.charged).length;
    // The originals are stored again under the new jobs: room is reserved across the awaits below.
    const room = this.#store.reserve();
    if (!room.grow(entries.reduce((sum, e) => sum + e.size, 0))) throw storeFull();
    try {
      await this.#chargeQuota(user, plan, day, charged);
    } catch (err) {
      room.release();
      throw err;
    }
    const options = storedSettings(user);
    try {
      const created = await this.#createBatch(
        user,
        plan,
        {
          name,
          settings,
          priority: options.priority,
          maxConcurrent: options.maxConcurrent,
          pauseOnError: false,
        },
        entries,
        day,
      );
      return { ...created, refused: [] };
    } catch (err) {
      if (charged > 0) await releaseQuota(this.#db, user.id, day, charged);
      throw err;
    } finally {
      room.release();
    }
  }

  async recompressJob(user: UserRow, jobId: string, settings: CompressSettings): Promise<CompressResponse> {
    const row = await this.#ownedJob(user.id, jobId);
    if (row.status !== "completed") throw new ApiError(409, "Only a completed image can be re-compressed");
    return this.recompress(user, [row], settings, row.filename);
  }

  async recompressBatch(user: UserRow, batchId: string, settings: CompressSettings): Promise<CompressResponse> {
    const batch = await this.#ownedBatch(user.id, batchId);
    const rows = (await q.jobsOfBatch(this.#db, batch.id)).filter((r) => r.status === "completed");
    if (rows.length === 0) throw new ApiError(409, "This batch has no completed images to re-compress");
    return this.recompress(user, rows, settings, `${batch.name} (re-compressed)`);
  }

  /** Takes `count` units of `day`'s quota atomically (only counted on Premium); 429 when they do not fit. */
  async #chargeQuota(user: UserRow, plan: PlanLimits, day: string, count: number): Promise<void> {
    if (count === 0) return;
    if (plan.dailyCompressions === null) return addUsage(this.#db, user.id, day, count);
    if (await reserveQuota(this.#db, user.id, day, count, plan.dailyCompressions)) return;
    const left = Math.max(0, plan.dailyCompressions - await usedOn(this.#db, user.id, day));
    throw dailyLimitReached(plan, left, count);
  }

  /**
   * One batch of new jobs, inserted in one statement batch, their originals
   * stored and queued. A refused entry becomes a failed job with its reason.
   */
  async #createBatch(
    user: UserRow,
    plan: PlanLimits,
    batch: Pick<BatchRow, "name" | "priority" | "maxConcurrent" | "pauseOnError"> & { settings: CompressSettings },
    entries: NewEntry[],
    day: string,
  ): Promise<{ jobs: Job[]; batch: Batch }> {
    const now = new Date(this.#now());
    const { settings } = batch;
    const batchRow: BatchRow = {
      id: crypto.randomUUID(),
      userId: user.id,
      name: batch.name,
      status: entries.every((e) => "refused" in e) ? "error" : "pending",
      totalFiles: entries.length,
      totalOriginalSize: entries.reduce((sum, e) => sum + e.size, 0),
      priority: batch.priority,
      maxConcurrent: batch.maxConcurrent,
      pauseOnError: batch.pauseOnError,
      settingsJson: JSON.stringify(settings),
      createdAt: now,
    };
    const jobRows: JobRow[] = entries.map((entry, i) => ({
      id: crypto.randomUUID(),
      batchId: batchRow.id,
      userId: user.id,
      seq: i,
      filename: entry.name,
      status: "refused" in entry ? "error" : "pending",
      progress: 0,
      originalSize: entry.size,
      compressedSize: null,
      quality: settings.quality,
      format: settings.format,
      width: null,
      height: null,
      errorMessage: "refused" in entry ? entry.refused : null,
      keptOriginal: false,
      scoreDue: false,
      scoresJson: null,
      metadataJson: null,
      charged: "refused" in entry ? false : entry.charged,
      quotaDay: day,
      sourceJobId: "refused" in entry ? null : entry.sourceJobId ?? null,
      createdAt: now,
      completedAt: null,
      expiresAt: null,
      expired: false,
    }));
    await q.insertBatchWithJobs(this.#db, batchRow, jobRows);
    const userLimit = plan.fixedConcurrency ?? batch.maxConcurrent;
    const queued: QueuedJob[] = [];
    entries.forEach((entry, i) => {
      if ("refused" in entry) return;
      // The upload's File (or the original a re-compression re-uses) is kept as it is: no copy.
      this.#store.putOriginal(jobRows[i]!.id, { data: entry.original, mimeType: "image/jpeg" });
      queued.push({
        jobId: jobRows[i]!.id,
        pixels: entry.pixels,
        userId: user.id,
        batchId: batchRow.id,
        planPriority: plan.priority,
        batchPriority: BATCH_PRIORITY[batch.priority],
        userLimit,
        order: this.scheduler.nextOrder(),
      });
    });
    this.scheduler.enqueue(queued);
    const jobs = jobRows.map((row) => toJob(row, settings));
    if (queued.length < entries.length) await this.#refreshBatch(batchRow.id);
    return { jobs, batch: toBatch((await q.findBatch(this.#db, batchRow.id)) ?? batchRow, jobs) };
  }

  /**
   * Refuses what is not a JPEG (magic bytes) or is over the pixel limit, from the
   * file's head. A corrupt JPEG is not refused: it fails as its own job.
   * Accepted: the pixel count from the header (0 when the header is unreadable).
   */
  #checkContent(name: string, head: Uint8Array, plan: PlanLimits): FileVerdict {
    if (sniffFormat(head) !== "jpeg") {
      let reason = "The file is not a JPEG image";
      try {
        inspectJpeg(head);
      } catch (err) {
        if (isCodecError(err)) reason = err.message;
      }
      return { refused: new ApiError(415, `'${name}': ${reason}`) };
    }
    const size = peekJpegSize(head);
    const pixels = size ? size.width * size.height : 0;
    if (size && pixels > plan.maxPixels) {
      const mp = (pixels / 1e6).toFixed(1);
      return {
        refused: new ApiError(
          413,
          `'${name}' is ${size.width}×${size.height} (${mp} MP); the ${plan.name} plan allows ${
            plan.maxPixels / 1e6
          } MP`,
        ),
      };
    }
    return { pixels };
  }

  // ---- running -----------------------------------------------------------------

  async #run(queued: QueuedJob, signal: AbortSignal): Promise<void> {
    const row = await q.findJob(this.#db, queued.jobId);
    const original = this.#store.original(queued.jobId);
    const batch = await q.findBatch(this.#db, queued.batchId);
    if (!row || !batch || row.status !== "pending") return;
    if (!original) return this.#fail(row, batch, "The original image is no longer in memory; please upload it again");

    await q.updateJob(this.#db, row.id, { status: "processing", progress: 0 });
    this.#progress.set(row.id, 0);
    await this.#refreshBatch(batch.id);
    const settings = batchSettings(batch);
    const user = await findUserById(this.#db, row.userId);
    const plan = user ? planOf(user, this.#now()) : PLANS.free;
    let scoreDue = false;
    try {
      // The pool takes (detaches) the buffer it gets: it gets a fresh copy of the stored original.
      const outcome = await this.#compressor.compress(new Uint8Array(await original.data.arrayBuffer()), settings, {
        signal,
        maxPixels: plan.maxPixels,
        // A fixed-quality result is served first and scored when a worker is idle.
        deferScore: !settings.target,
        onProgress: (p) => this.#progress.set(row.id, Math.max(0, Math.min(99, Math.round(p)))),
      });
      if (signal.aborted) return;
      const result: StoredFile = outcome.keptOriginal
        ? original
        : { data: new Blob([outcome.bytes as Uint8Array<ArrayBuffer>]), mimeType: outcome.mimeType };
      this.#store.putResult(row.id, result);
      this.#store.putThumbnail(row.id, {
        data: new Blob([outcome.thumbnail as Uint8Array<ArrayBuffer>]),
        mimeType: "image/jpeg",
      });
      const now = this.#now();
      this.#expiries.set(row.id, now + this.#ttlMs);
      // Never bigger: returning the original costs no quota (within the day's refunds).
      const refunded = outcome.keptOriginal && row.charged && await this.#refund(row);
      scoreDue = outcome.scores === null;
      await q.updateJob(this.#db, row.id, {
        status: "completed",
        progress: 100,
        compressedSize: outcome.keptOriginal ? row.originalSize : outcome.compressedSize,
        quality: outcome.chosenQuality ?? settings.quality,
        format: formatOf(result),
        width: outcome.width,
        height: outcome.height,
        keptOriginal: outcome.keptOriginal,
        scoresJson: outcome.scores && JSON.stringify(outcome.scores),
        scoreDue,
        metadataJson: JSON.stringify(outcome.metadata),
        completedAt: new Date(now),
        expiresAt: new Date(now + this.#ttlMs),
        charged: row.charged && !refunded,
      });
    } catch (err) {
      if (signal.aborted) return; // the canceller records the outcome
      const message = isCodecError(err) ? err.message : UNEXPECTED_MESSAGE;
      if (!isCodecError(err)) console.error(`Job ${row.id} failed:`, err);
      await this.#fail(row, batch, message);
      return;
    } finally {
      this.#progress.delete(row.id);
    }
    await this.#refreshBatch(batch.id);
    if (scoreDue) this.#queueScore(row.id, queued.pixels);
  }

  #queueScore(jobId: string, pixels: number): void {
    this.scheduler.enqueueBackground({ id: `score:${jobId}`, pixels, run: (signal) => this.#score(jobId, signal) });
  }

  /** Measures a completed result that was served before its score (a deferred score). */
  async #score(jobId: string, signal: AbortSignal): Promise<void> {
    const original = this.#store.original(jobId), result = this.#store.result(jobId);
    try {
      if (!original || !result) throw new Error("its bytes are gone");
      const [a, b] = await Promise.all([original.data.arrayBuffer(), result.data.arrayBuffer()]);
      const scores = await this.#compressor.score(new Uint8Array(a), new Uint8Array(b), { signal });
      await q.updateJob(this.#db, jobId, { scoresJson: JSON.stringify(scores), scoreDue: false });
    } catch (err) {
      if (signal.aborted) return; // shutting down
      console.error(`Job ${jobId} could not be scored:`, err);
      // The result stays downloadable; the card says it has no measurement.
      await q.updateJob(this.#db, jobId, { scoreDue: false });
    }
  }

  async #fail(row: JobRow, batch: BatchRow, message: string): Promise<void> {
    const refunded = row.charged && await this.#refund(row);
    await q.updateJob(this.#db, row.id, { status: "error", errorMessage: message, charged: row.charged && !refunded });
    this.#store.delete(row.id);
    if (batch.pauseOnError) {
      const current = await q.findBatch(this.#db, batch.id);
      if (current && (current.status === "processing" || current.status === "pending")) {
        this.scheduler.pauseBatch(batch.id);
        await q.updateBatch(this.#db, batch.id, { status: "paused" });
      }
    }
    await this.#refreshBatch(batch.id);
  }

  /** Gives the job's unit back, within the day's refund cap; true when it did. */
  #refund(row: JobRow): Promise<boolean> {
    return refundQuota(this.#db, row.userId, this.#quotaDayOf(row), QUOTA_REFUNDS_PER_DAY);
  }

  #quotaDayOf(row: JobRow): string {
    return row.quotaDay ?? utcDay(row.createdAt.getTime());
  }

  async #refreshBatch(batchId: string): Promise<void> {
    const batch = await q.findBatch(this.#db, batchId);
    if (!batch) return;
    const statuses = (await q.jobsOfBatch(this.#db, batchId)).map((j) => j.status as JobStatus);
    const next = deriveBatchStatus(batch.status as Batch["status"], statuses);
    if (next !== batch.status) await q.updateBatch(this.#db, batchId, { status: next });
  }

  // ---- reads -------------------------------------------------------------------

  #view(row: JobRow, settingsByBatch: Map<string, CompressSettings>): Job {
    const settings = settingsByBatch.get(row.batchId)!;
    const job = toJob(row, settings, this.#progress.get(row.id));
    if (job.status === "completed" && !job.expired && this.#isExpired(row)) job.expired = true;
    return job;
  }

  #isExpired(row: JobRow): boolean {
    return row.expired || (row.expiresAt !== null && row.expiresAt.getTime() <= this.#now()) ||
      (row.status === "completed" && !this.#store.result(row.id));
  }

  async listJobs(userId: number): Promise<Job[]> {
    const rows = await q.listJobsForUser(this.#db, userId);
    // One query for every batch's settings: this runs on every poll.
    const batches = await q.findBatches(this.#db, [...new Set(rows.map((r) => r.batchId))]);
    const settings = new Map(batches.map((b) => [b.id, batchSettings(b)]));
    return rows.map((r) => this.#view(r, settings));
  }

  async listBatches(userId: number): Promise<Batch[]> {
    const rows = await q.listBatchesForUser(this.#db, userId);
    const jobRows = await q.jobsOfBatches(this.#db, rows.map((b) => b.id));
    const settings = new Map(rows.map((b) => [b.id, batchSettings(b)]));
    return rows.map((b) => toBatch(b, jobRows.filter((j) => j.batchId === b.id).map((j) => this.#view(j, settings))));
  }

  async #ownedJob(userId: number, jobId: string): Promise<JobRow> {
    const row = await q.findJobOfUser(this.#db, jobId, userId);
    if (!row) throw new ApiError(404, "No such job");
    return row;
  }

  async #ownedBatch(userId: number, batchId: string): Promise<BatchRow> {
    const row = await q.findBatchOfUser(this.#db, batchId, userId);
    if (!row) throw new ApiError(404, "No such batch");
    return row;
  }

  async download(userId: number, jobId: string): Promise<FileDownload> {
    const row = await this.#ownedJob(userId, jobId);
    if (row.status !== "completed") throw new ApiError(409, "The job has not completed yet");
    const file = this.#resultFile(row);
    if (!file) {
      throw new ApiError(410, "This result has expired and was deleted from memory; please upload the image again");
    }
    return file;
  }

  /** A completed job's result under its download name, or null once its bytes are gone. */
  #resultFile(row: JobRow): FileDownload | null {
    const result = this.#isExpired(row) ? null : this.#store.result(row.id);
    if (!result) return null;
    return { data: result.data, mimeType: result.mimeType, name: downloadName(row.filename, formatOf(result)) };
  }

  /** The original, or with `size: "thumb"` the small upright JPEG made while the job ran. */
  async preview(userId: number, jobId: string, size: PreviewSize = "original"): Promise<FileDownload> {
    const row = await this.#ownedJob(userId, jobId);
    if (size === "thumb" && row.status !== "completed") {
      throw new ApiError(409, "The thumbnail is made while the image is processed; this one has not completed yet");
    }
    const held = size === "thumb" ? this.#store.thumbnail(row.id) : this.#store.original(row.id);
    const file = this.#isExpired(row) ? null : held;
    if (!file) throw new ApiError(410, "The original has been deleted from memory");
    // Both are JPEGs, whatever the uploaded name said.
    const name = downloadName(row.filename, "jpeg");
    return { data: file.data, mimeType: file.mimeType, name };
  }

  async zipEntries(userId: number, batchId: string): Promise<{ name: string; files: FileDownload[] }> {
    const batch = await this.#ownedBatch(userId, batchId);
    const files: FileDownload[] = [];
    for (const row of await q.jobsOfBatch(this.#db, batch.id)) {
      const file = row.status === "completed" ? this.#resultFile(row) : null;
      if (file) files.push(file);
    }
    if (files.length === 0) throw new ApiError(409, "This batch has no completed images to download");
    return { name: safeFileName(batch.name).replace(/\.(jpe?g|jfif)$/i, ""), files };
  }

  /** Every completed result still held, newest first, for "Download all" as one ZIP. */
  async allResults(userId: number): Promise<{ name: string; files: FileDownload[] }> {
    const files: FileDownload[] = [];
    for (const row of await q.listJobsForUser(this.#db, userId)) {
      const file = row.status === "completed" ? this.#resultFile(row) : null;
      if (file) files.push(file);
    }
    if (files.length === 0) throw new ApiError(409, "There are no completed images to download");
    const day = utcDay(this.#now());
    return { name: allResultsZipName(day, files.length), files };
  }

  queueStatus(user: UserRow): QueueStatus {
    const plan = planOf(user, this.#now());
    const max = plan.fixedConcurrency ?? storedSettings(user).maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
    const current = this.scheduler.runningFor(user.id);
    return { maxConcurrentJobs: max, currentlyProcessing: current, availableSlots: Math.max(0, max - current) };
  }

  async usage(user: UserRow): Promise<Usage> {
    const now = this.#now();
    const plan = planOf(user, this.#now());
    return {
      used: await usedOn(this.#db, user.id, utcDay(now)),
      limit: plan.dailyCompressions,
      resetsAt: nextUtcMidnight(now).toISOString(),
    };
  }

  // ---- controls ----------------------------------------------------------------

  /** Deletes a job and its bytes at once; an unfinished job is aborted and its quota returned. */
  async deleteJob(userId: number, jobId: string): Promise<void> {
    const row = await this.#ownedJob(userId, jobId);
    this.scheduler.dropQueued((j) => j.jobId === row.id);
    await this.scheduler.abort(row.id);
    const fresh = await q.findJob(this.#db, row.id);
    if (fresh && fresh.charged && fresh.status !== "completed") await this.#refund(fresh);
    this.#store.delete(row.id);
    this.#expiries.delete(row.id);
    await q.deleteJob(this.#db, row.id);
    // A batch whose last job is gone goes too: no empty "0 of N" rows or ZIP links that answer 409.
    if ((await q.jobsOfBatch(this.#db, row.batchId)).length === 0) await q.deleteBatch(this.#db, row.batchId);
    else await this.#refreshBatch(row.batchId);
  }

  async pauseBatch(userId: number, batchId: string): Promise<Batch> {
    const batch = await this.#ownedBatch(userId, batchId);
    if (!canPauseBatch(batch.status)) {
      throw new ApiError(409, `Only a processing batch can be paused; this one is ${batch.status}`);
    }
    this.scheduler.pauseBatch(batch.id);
    await q.updateBatch(this.#db, batch.id, { status: "paused" });
    return this.#batchView(userId, batch.id);
  }

  async resumeBatch(userId: number, batchId: string): Promise<Batch> {
    const batch = await this.#ownedBatch(userId, batchId);
    if (!canResumeBatch(batch.status)) {
      throw new ApiError(409, `Only a paused batch can be resumed; this one is ${batch.status}`);
    }
    await q.updateBatch(this.#db, batch.id, { status: "processing" });
    await this.#refreshBatch(batch.id);
    this.scheduler.resumeBatch(batch.id);
    return this.#batchView(userId, batch.id);
  }

  /** Cancels a batch: pending work is dropped, running work aborted, completed results kept. */
  async cancelBatch(userId: number, batchId: string): Promise<Batch> {
    const batch = await this.#ownedBatch(userId, batchId);
    if (!canCancelBatch(batch.status)) {
      throw new ApiError(409, `Only an unfinished batch can be cancelled; this one is ${batch.status}`);
    }
    await q.updateBatch(this.#db, batch.id, { status: "cancelled" });
    this.scheduler.dropQueued((j) => j.batchId === batch.id);
    const rows = await q.jobsOfBatch(this.#db, batch.id);
    await Promise.all(rows.filter((r) => this.scheduler.isRunning(r.id)).map((r) => this.scheduler.abort(r.id)));
    this.scheduler.resumeBatch(batch.id); // forget the pause mark
    for (const row of await q.jobsOfBatch(this.#db, batch.id)) {
      if (row.status !== "pending" && row.status !== "processing") continue;
      const refunded = row.charged && await this.#refund(row);
      await q.updateJob(this.#db, row.id, {
        status: "error",
        errorMessage: CANCELLED_MESSAGE,
        charged: row.charged && !refunded,
      });
      this.#store.delete(row.id);
    }
    return this.#batchView(userId, batch.id);
  }

  async #batchView(userId: number, batchId: string): Promise<Batch> {
    const batch = await this.#ownedBatch(userId, batchId);
    const settings = new Map([[batch.id, batchSettings(batch)]]);
    const jobs = (await q.jobsOfBatch(this.#db, batch.id)).map((j) => this.#view(j, settings));
    return toBatch(batch, jobs);
  }

  // ---- lifecycle ---------------------------------------------------------------

  /** Deletes bytes whose time is up and marks their jobs expired. */
  async sweepExpired(): Promise<number> {
    const now = this.#now();
    let n = 0;
    for (const [jobId, at] of this.#expiries) {
      if (at > now) continue;
      this.#expiries.delete(jobId);
      this.#store.delete(jobId);
      await q.updateJob(this.#db, jobId, { expired: true });
      n++;
    }
    return n;
  }

  /**
   * At start: work a previous process left unfinished lost its bytes with that
   * process, so it fails with a clear message and gives its quota back.
   */
  async recoverAfterRestart(): Promise<number> {
    const orphans = await q.unfinishedJobs(this.#db);
    for (const row of orphans) {
      await q.updateJob(this.#db, row.id, { status: "error", errorMessage: RESTART_MESSAGE, charged: false });
      // Our restart, not the user's doing: given back outside the refund cap.
      if (row.charged) await releaseQuota(this.#db, row.userId, this.#quotaDayOf(row), 1);
    }
    await q.markAllCompletedExpired(this.#db);
    for (const batchId of new Set(orphans.map((r) => r.batchId))) {
      const batch = await q.findBatch(this.#db, batchId);
      if (batch?.status === "paused") await q.updateBatch(this.#db, batchId, { status: "processing" });
      await this.#refreshBatch(batchId);
    }
    return orphans.length;
  }

  /** Stops admitting uploads and waits (bounded) for running jobs. */
  async drain(timeoutMs: number): Promise<void> {
    this.#accepting = false;
    await this.scheduler.drain(timeoutMs);
  }
}

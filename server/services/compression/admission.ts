/**
 * Admission (DESIGN §3): POST /api/compress and re-compressions. Plan limits and the file's
 * content are checked, the store's room is reserved, and the batch, its jobs and their quota
 * units are admitted in one transition (lifecycle/transitions.ts) before the jobs are queued.
 */
import type { Batch, CompressResponse, Job } from "../../../contract/jobs.ts";
import { MAX_API_JOBS_IN_FLIGHT } from "../../../contract/api-keys.ts";
import type { PlanLimits } from "../../../contract/plans.ts";
import { planOf } from "../plan.ts";
import { safeFileName } from "../../../contract/file-names.ts";
import {
  type CompressSettings,
  compressSettingsOf,
  FREE_RECOMPRESSIONS_PER_IMAGE,
  type RecompressSettings,
  type SavedSettings,
} from "../../../contract/settings.ts";
import type { BatchRow, JobRow, UserRow } from "../../../db/schema.ts";
import {
  inspectJpeg,
  isCodecError,
  type JpegSurvey,
  sniffFormat,
  structureProblem,
  surveyJpeg,
} from "../../../codecs/mod.ts";
import { DomainError, type DomainErrorCode } from "../../domain-error.ts";
import { retentionPhrase } from "../../../contract/storage.ts";
import { utcDay } from "./quota-day.ts";
import { QuotaExceeded, type Transitions } from "../lifecycle/transitions.ts";
import { NO_LEASE } from "../lifecycle/sql.ts";
import type { UploadForm } from "./upload-form.ts";
import {
  dailyLimitReached,
  type EarlyFile,
  fileTooLarge,
  type FileVerdict,
  storeFull,
  tooManyFiles,
  UploadIntake,
} from "./upload-intake.ts";
import type { HeadStart, HeadStarts } from "./head-starts.ts";
import { concurrencyOf } from "../scheduling/policy.ts";
import { toBatch, toJob } from "./views.ts";
import { storedSettings } from "../user-settings.ts";
import { isExpired, ownedBatch, ownedJob } from "./owned.ts";
import type { JobFiles } from "./job-files.ts";
import type { JobQueue } from "./job-queue.ts";
import type { CompressionReads } from "./reads.ts";
import { turnTaker } from "../../event-loop.ts";

function refuseTargetOffPlan(plan: PlanLimits, settings: CompressSettings): void {
  if (settings.target && !plan.targets) {
    throw new DomainError("forbidden_plan", "target: target size and quality are Premium features");
  }
  if (settings.widths && !plan.webSets) {
    throw new DomainError(
      "forbidden_plan",
      "widths: web sets are a Premium feature; resize and every format are on every plan",
    );
  }
}

/** A file of an upload refused on its own, by its code (the route answers with the code's status). */
export interface RefusedUpload {
  filename: string;
  code: DomainErrorCode;
  error: string;
}

/** What an upload admitted: every file's job, and the files refused on their own. */
export type Admitted = Omit<CompressResponse, "refused"> & { refused: RefusedUpload[] };

/** A job to create: its original and header pixel count, or the reason it was refused. */
type NewEntry =
  & { name: string; size: number }
  & (
    | { original: Blob; pixels: number; charged: boolean; sourceJobId?: string; headStart?: HeadStart | null }
    | { refused: { code: DomainErrorCode; message: string } }
  );

/** A refusal's message for the file's own entry, which already shows its name. */
const withoutName = (message: string, name: string) =>
  message.replace(`'${name}': `, "").replace(`'${name}' is `, "This file is ");

/**
 * The file's structure, read whole: the frame header is found however far into the file it is
 * (segment lengths only, no decode), and the walk keeps nothing per segment (ADR 027).
 */
const surveyOf = async (file: Blob) => surveyJpeg(new Uint8Array(await file.arrayBuffer()));

/** The pixel count a JPEG's header declares (0 when it has no readable frame header). */
const pixelsOf = (survey: JpegSurvey) => survey.frame ? survey.frame.width * survey.frame.height : 0;

export interface AdmissionDeps {
  reads: Pick<
    CompressionReads,
    | "usedOn"
    | "countUnfinishedApiJobs"
    | "countRecompressions"
    | "findJob"
    | "findJobOfUser"
    | "findBatch"
    | "findBatchOfUser"
    | "jobsOfBatch"
  >;
  transitions: Pick<Transitions, "admit">;
  /** Originals stored, and the store's room reserved for them. */
  files: Pick<JobFiles, "reserve" | "blob" | "put" | "free">;
  /** Where admitted jobs go: this instance's scheduler or the shared queue. */
  jobQueue: Pick<JobQueue, "admissionLease" | "admitted">;
  /** Work begun on files as they arrive (ADR 056); absent on a shared queue, where any instance may run a job. */
  headStarts?: Pick<HeadStarts, "begin">;
  now: () => number;
  /** How long results are kept after they complete (named in a refusal). */
  ttlMs: number;
}

export class Admission {
  /** False once draining: uploads are refused. */
  #accepting = true;
  /** API uploads per user whose body is still arriving here (no job row yet). */
  #apiArriving = new Map<number, number>();
  /** The last in-flight check per user: the next one waits for it. */
  #apiChecks = new Map<number, Promise<void>>();

  constructor(private readonly deps: AdmissionDeps) {}

  /** From now on uploads are refused (the server is draining). */
  stopAccepting(): void {
    this.#accepting = false;
  }

  /**
   * Opens an upload before its body is read: refuses at once while shutting
   * down or when the day's quota is used up, and hands back the intake that
   * bounds the body as it streams (upload-intake.ts). Release it on every path.
   */
  async openUpload(user: UserRow): Promise<UploadIntake> {
    if (!this.#accepting) {
      throw new DomainError("unavailable", "The server is restarting; please try again in a minute", {
        retryAfterSeconds: 60,
      });
    }
    const now = this.deps.now();
    const plan = planOf(user, now);
    let left: number | null = null;
    if (plan.dailyCompressions !== null) {
      left = Math.max(0, plan.dailyCompressions - await this.deps.reads.usedOn(user.id, utcDay(now)));
      if (left === 0) throw dailyLimitReached(plan, 0, 0, now);
    }
    return new UploadIntake(plan, left, this.deps.files.reserve(), now);
  }

  /**
   * Opens one image's upload through the developer API (`POST /api/v1/compress`), with its
   * settings known before the body is read: what `openUpload` refuses, plus a target off the
   * plan (forbidden_plan) and an account with MAX_API_JOBS_IN_FLIGHT API jobs unfinished (unavailable; ADR 025).
   */
  async openApiUpload(user: UserRow, settings: SavedSettings): Promise<UploadIntake> {
    refuseTargetOffPlan(planOf(user, this.deps.now()), settings);
    const intake = await this.openUpload(user);
    // One check at a time per user, and requests still arriving here count with the unfinished jobs:
    // 150 requests at once otherwise all read the same count (issue 29, I1). A request counts until
    // its job row exists (`admit`) or it is refused: both release the intake.
    const previous = this.#apiChecks.get(user.id) ?? Promise.resolve();
    const check = previous.then(async () => {
      const unfinished = await this.deps.reads.countUnfinishedApiJobs(user.id);
      const arriving = this.#apiArriving.get(user.id) ?? 0; // read after the await: releases happen meanwhile
      if (unfinished + arriving >= MAX_API_JOBS_IN_FLIGHT) {
        throw new DomainError(
          "unavailable",
          `This account already has ${MAX_API_JOBS_IN_FLIGHT} API jobs unfinished; wait for some to end and try again`,
          { retryAfterSeconds: 5 },
        );
      }
      this.#apiArriving.set(user.id, arriving + 1);
      intake.onRelease(() => {
        const left = (this.#apiArriving.get(user.id) ?? 1) - 1;
        if (left > 0) this.#apiArriving.set(user.id, left);
        else this.#apiArriving.delete(user.id);
      });
    });
    const settled = check.catch(() => {});
    this.#apiChecks.set(user.id, settled);
    settled.then(() => {
      if (this.#apiChecks.get(user.id) === settled) this.#apiChecks.delete(user.id);
    });
    try {
      await check;
    } catch (err) {
      intake.release();
      throw err;
    }
    return intake;
  }

  /**
   * A file of an upload has arrived whole (ADR 056): it is judged now, while the rest of the body arrives,
   * and its compression begins in an idle slot with the settings the fields read before it give (the
   * job takes it over only if its settings are those; none while a field read so far is invalid). Never
   * throws: `admit` answers for the upload.
   */
  arrived(user: UserRow, intake: UploadIntake, file: File, settingsSoFar: SavedSettings | null): void {
    const early = this.#early(user, intake.plan, file, settingsSoFar);
    early.catch(() => {}); // `admit` awaits it; an upload refused before that never does
    intake.early.set(file, early);
  }

  async #early(user: UserRow, plan: PlanLimits, file: File, saved: SavedSettings | null): Promise<EarlyFile> {
    const verdict = await this.#judge(safeFileName(file.name), file, plan);
    const headStarts = this.deps.headStarts;
    if (!headStarts || !saved || !("pixels" in verdict)) return { verdict, headStart: null };
    const settings = compressSettingsOf(saved);
    // A target off the plan is refused at admission; a web set may take more than one worker.
    if (settings.widths || (settings.target && !plan.targets)) return { verdict, headStart: null };
    const headStart = headStarts.begin(file, verdict.pixels, settings, {
      maxPixels: plan.maxPixels,
      userId: user.id,
      userLimit: concurrencyOf(plan, saved.maxConcurrent),
    });
    return { verdict, headStart };
  }

  /** A file judged alone: over the plan's size, or its content (`#checkContent`). */
  #judge(name: string, file: File, plan: PlanLimits): Promise<FileVerdict> {
    return file.size > plan.maxFileBytes
      ? Promise.resolve({ refused: fileTooLarge(plan, name, file.size) })
      : this.#checkContent(name, file, plan);
  }

  /**
   * Admits a read upload: its bytes are already reserved by `intake`, which it turns into stored
   * files. `apiKeyId`: the key that sent it through the developer API (recorded on the batch).
   */
  async admit(user: UserRow, form: UploadForm, intake: UploadIntake, apiKeyId?: string): Promise<Admitted> {
    const plan = intake.plan;
    const { files, settings } = form;
    refuseTargetOffPlan(plan, settings);
    if (files.length > plan.maxFilesPerUpload) throw tooManyFiles(plan, files.length);
    // Names from users are used (stored, quoted) only in their safe form (contract/file-names.ts).
    const names = files.map((f) => safeFileName(f.name));
    // Each file is judged alone: a refused one gets a failed entry, the others go ahead. Most were
    // judged as they arrived (`arrived`).
    const verdicts: FileVerdict[] = [];
    const headStarts: (HeadStart | null)[] = [];
    const turns = turnTaker(); // each file is read whole, from memory: other requests get turns (ADR 052)
    for (const [i, file] of files.entries()) {
      const early = intake.early.get(file);
      if (!early) await turns.turn();
      const { verdict, headStart } = early ? await early : { verdict: await this.#judge(names[i]!, file, plan) };
      verdicts.push(verdict);
      headStarts.push(headStart ?? null);
    }
    const accepted = verdicts.flatMap((v, i) => ("pixels" in v ? [i] : []));
    if (accepted.length === 0) throw (verdicts[0] as { refused: DomainError }).refused; // as one refused file answers

    const total = accepted.reduce((sum, i) => sum + files[i]!.size, 0);
    // Room was reserved chunk by chunk while the body arrived; only a body larger than its files needs more.
    if (total > intake.reservation.bytes && !intake.reservation.grow(total - intake.reservation.bytes)) {
      throw storeFull();
    }

    const day = utcDay(this.deps.now());
    const created = await this.#createBatch(
      user,
      plan,
      { name: files.length === 1 ? names[0]! : `${files.length} images`, settings, apiKeyId },
      files.map((file, i) => {
        const verdict = verdicts[i]!;
        return "refused" in verdict
          ? {
            name: names[i]!,
            size: file.size,
            refused: { code: verdict.refused.code, message: withoutName(verdict.refused.message, names[i]!) },
          }
          : {
            name: names[i]!,
            size: file.size,
            original: file,
            pixels: verdict.pixels,
            charged: true,
            headStart: headStarts[i],
          };
      }),
      day,
      // The stored files now hold the room the body reserved, and the rows count as unfinished jobs.
      () => intake.release(),
    );
    const refused = verdicts.flatMap((v, i) =>
      "refused" in v ? [{ filename: names[i]!, code: v.refused.code, error: v.refused.message }] : []
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
    settings: RecompressSettings,
    name: string,
  ): Promise<CompressResponse> {
    const { reads, files, now } = this.deps;
    const plan = planOf(user, now());
    refuseTargetOffPlan(plan, settings);
    const held: { row: JobRow; original: Blob }[] = [];
    for (const row of sources) {
      if (row.status !== "completed" || isExpired(row, now())) continue;
      const original = await files.blob(row.id, "original", "image/jpeg");
      if (original) held.push({ row, original });
    }
    if (held.length === 0) {
      // Worded for every store kind: the bytes went at expiry or with their job, wherever they were kept.
      const kept = retentionPhrase(Math.round(this.deps.ttlMs / 1000));
      throw new DomainError(
        "gone",
        `The originals have been deleted (images are kept for ${kept} after compression); please upload the images again`,
      );
    }
    const day = utcDay(now());
    const entries: NewEntry[] = [];
    const usedToday = new Map<string, number>(); // re-compressions per upload, this one included
    for (const { row, original } of held) {
      const rootId = row.sourceJobId ?? row.id;
      const root = rootId === row.id ? row : await reads.findJob(rootId);
      const count = usedToday.get(rootId) ?? await reads.countRecompressions(rootId, day);
      usedToday.set(rootId, count + 1);
      const free = root !== undefined && root.charged && root.quotaDay === day && count < FREE_RECOMPRESSIONS_PER_IMAGE;
      entries.push({
        name: row.filename,
        size: original.size,
        original,
        pixels: pixelsOf(await surveyOf(original)),
        charged: !free,
        sourceJobId: rootId,
      });
    }
    // The originals are stored again under the new jobs: room is reserved across the awaits below.
    const room = files.reserve();
    if (!room.grow(entries.reduce((sum, e) => sum + e.size, 0))) throw storeFull();
    // Batch options not sent are the user's saved ones; a re-compression never pauses on an error unless asked.
    const all: SavedSettings = { ...storedSettings(user), pauseOnError: false, ...settings };
    try {
      const created = await this.#createBatch(user, plan, { name, settings: all }, entries, day);
      return { ...created, refused: [] };
    } finally {
      room.release();
    }
  }

  async recompressJob(user: UserRow, jobId: string, settings: RecompressSettings): Promise<CompressResponse> {
    const row = await ownedJob(this.deps.reads, user.id, jobId);
    if (row.status !== "completed") throw new DomainError("conflict", "Only a completed image can be re-compressed");
    return this.recompress(user, [row], settings, row.filename);
  }

  async recompressBatch(user: UserRow, batchId: string, settings: RecompressSettings): Promise<CompressResponse> {
    const batch = await ownedBatch(this.deps.reads, user.id, batchId);
    const rows = (await this.deps.reads.jobsOfBatch(batch.id)).filter((r) => r.status === "completed");
    if (rows.length === 0) throw new DomainError("conflict", "This batch has no completed images to re-compress");
    return this.recompress(user, rows, settings, `${batch.name} (re-compressed)`);
  }

  /** The admission of `count` units refused: the day's quota, with what is left today. */
  async #quotaRefusal(user: UserRow, plan: PlanLimits, day: string, count: number): Promise<never> {
    const left = Math.max(0, plan.dailyCompressions! - await this.deps.reads.usedOn(user.id, day));
    throw dailyLimitReached(plan, left, count, this.deps.now());
  }

  /**
   * One batch of new jobs and their quota units, admitted in one transition,
   * their originals stored and queued. A refused entry becomes a failed job with its reason.
   */
  async #createBatch(
    user: UserRow,
    plan: PlanLimits,
    batch: { name: string; settings: SavedSettings; apiKeyId?: string },
    entries: NewEntry[],
    day: string,
    admitted: () => void = () => {},
  ): Promise<{ jobs: Job[]; batch: Batch }> {
    const { files, jobQueue } = this.deps;
    const now = new Date(this.deps.now());
    const { settings } = batch;
    // This instance's lease, or none on a shared queue until an instance claims the job.
    const lease = jobQueue.admissionLease(now.getTime());
    const batchRow: BatchRow = {
      id: crypto.randomUUID(),
      userId: user.id,
      name: batch.name,
      status: entries.every((e) => "refused" in e) ? "error" : "pending",
      totalFiles: entries.length,
      totalOriginalSize: entries.reduce((sum, e) => sum + e.size, 0),
      settingsJson: JSON.stringify(settings),
      createdAt: now,
      apiKeyId: batch.apiKeyId ?? null,
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
      encoder: null,
      width: null,
      height: null,
      errorMessage: "refused" in entry ? entry.refused.message : null,
      errorCode: "refused" in entry ? entry.refused.code : null,
      keptOriginal: false,
      scoreDue: false,
      scoresJson: null,
      metadataJson: null,
      webSetJson: null,
      formatChoiceJson: null,
      heldSize: null,
      charged: "refused" in entry ? false : entry.charged,
      quotaDay: day,
      sourceJobId: "refused" in entry ? null : entry.sourceJobId ?? null,
      createdAt: now,
      completedAt: null,
      expiresAt: null,
      expired: false,
      pixels: "refused" in entry ? 0 : entry.pixels,
      ...("refused" in entry ? NO_LEASE : lease),
    }));
    const charged = jobRows.filter((r) => r.charged).length;
    // Bytes before rows: a job any instance can see has its original in the store.
    const stored = entries.flatMap((entry, i) => "refused" in entry ? [] : [{ id: jobRows[i]!.id, entry }]);
    try {
      await Promise.all(stored.map(({ id, entry }) => files.put(id, "original", entry.original, "image/jpeg")));
      await this.deps.transitions.admit(batchRow, jobRows, {
        userId: user.id,
        day,
        count: charged,
        limit: plan.dailyCompressions,
      });
      // Before the jobs are queued: a job's run takes its head start over (ADR 056).
      for (const { id, entry } of stored) entry.headStart?.assign(id, compressSettingsOf(settings), plan.maxPixels);
      admitted();
    } catch (err) {
      // The admission did not commit: no row claims the originals stored for it, so they go.
      await files.free({ freeBytes: stored.map(({ id }) => id) });
      if (err instanceof QuotaExceeded) await this.#quotaRefusal(user, plan, day, charged);
      throw err;
    }
    jobQueue.admitted(jobRows.filter((row) => row.status === "pending"), batchRow, plan);
    const jobs = jobRows.map((row) => toJob(row, settings));
    return { jobs, batch: toBatch((await this.deps.reads.findBatch(batchRow.id)) ?? batchRow, jobs) };
  }

  /**
   * Refuses what is not a JPEG (magic bytes), is over the pixel limit wherever its frame header
   * is, or whose structure or metadata is out of all proportion to its image (ADR 027). A
   * corrupt JPEG is not refused: it fails as its own job.
   * Accepted: the pixel count from the header (0 when the header is unreadable).
   */
  async #checkContent(name: string, file: Blob, plan: PlanLimits): Promise<FileVerdict> {
    const head = new Uint8Array(await file.slice(0, 64).arrayBuffer());
    if (sniffFormat(head) !== "jpeg") {
      let reason = "The file is not a JPEG image";
      try {
        inspectJpeg(head);
      } catch (err) {
        if (isCodecError(err)) reason = err.message;
      }
      return { refused: new DomainError("unsupported_format", `'${name}': ${reason}`) };
    }
    const survey = await surveyOf(file);
    const pixels = pixelsOf(survey);
    if (survey.frame && pixels > plan.maxPixels) {
      const { width, height } = survey.frame;
      const mp = (pixels / 1e6).toFixed(1);
      return {
        refused: new DomainError(
          "too_many_pixels",
          `'${name}' is ${width}×${height} (${mp} MP); the ${plan.name} plan allows ${plan.maxPixels / 1e6} MP`,
        ),
      };
    }
    const problem = structureProblem(survey);
    if (problem) {
      return {
        refused: new DomainError(problem.code, `'${name}': ${problem.message}`, { cause: problem }),
      };
    }
    return { pixels };
  }
}

/**
 * The compression API (DESIGN §3, §5, §8), composed from its parts: admission.ts (limits, quota,
 * store room), runner.ts (a job on the pool, ended through a transition on every path),
 * queries.ts (reads), controls.ts (delete, pause, resume, cancel), retention.ts (TTL sweep,
 * strays, restart recovery, lease heartbeat and adoption; ADR 018), job-files.ts (the byte
 * store and its cap; the one place bytes are freed), over ../lifecycle/ (transitions.ts: every
 * state change, one transaction each, ADR 017; leases.ts, ADR 018; queue-reads.ts). The routes
 * call this class; it holds no logic of its own.
 */
import type { Batch, CompressResponse, Job, PreviewSize, QueueStatus, Usage } from "../../../contract/jobs.ts";
import type { EndedJob } from "./queries.ts";
import type { Admitted } from "./admission.ts";
import type { RecompressSettings, SavedSettings } from "../../../contract/settings.ts";
import type { Db } from "../../../db/client.ts";
import type { UserRow } from "../../../db/schema.ts";
import { Admission } from "./admission.ts";
import type { ByteStore } from "../../store/mod.ts";
import type { Compressor } from "./compressor.ts";
import { Controls } from "./controls.ts";
import type { CompressionCore } from "./core.ts";
import { JobFiles } from "./job-files.ts";
import { Transitions } from "../lifecycle/transitions.ts";
import { Leases } from "../lifecycle/leases.ts";
import { QueueReads } from "../lifecycle/queue-reads.ts";
import { type FileDownload, Queries, type ZipFile, type ZipVersions } from "./queries.ts";
import { Retention } from "./retention.ts";
import { Runner } from "./runner.ts";
import { DEFAULT_POLL_MS, QueuePuller } from "./queue-puller.ts";
import { memoryBudgetBytes } from "./memory-budget.ts";
import { JobEndings } from "./job-endings.ts";
import { Scheduler } from "./scheduler.ts";
import type { UploadForm } from "./upload-form.ts";
import type { UploadIntake } from "./upload-intake.ts";
import { createLogger, type Logger } from "../../log.ts";

export { RESTART_MESSAGE } from "../lifecycle/transitions.ts";
export type { FileDownload, ZipFile, ZipVersions } from "./queries.ts";

export interface CompressionServiceOptions {
  db: Db;
  compressor: Compressor;
  /** The byte store STORE_URL names (server/store). */
  store: ByteStore;
  /** MAX_STORE_BYTES: the cap on what this process holds in the store (exact for memory, soft otherwise). */
  maxStoreBytes: number;
  resultTtlMs: number;
  now?: () => number;
  /** This process's id as lease owner (default: random). */
  instanceId?: string;
  /** How long a lease holds without renewal (default 30 s; renewed every third of it). */
  leaseMs?: number;
  /**
   * Whether other instances may share the database (libsql://, http(s)://): then at start only
   * jobs whose leases lapsed are adopted; otherwise every unfinished job is this process's to resume.
   */
  sharedDatabase?: boolean;
  /**
   * Instances share the database's queue (ADR 018): admission records jobs with no owner and each
   * instance with workers pulls them while it has free slots (queue-puller.ts); restart recovery
   * and lease adoption are then the pull's. Default false: this instance runs what it admits.
   */
  sharedQueue?: boolean;
  /** The server's logger (default: info and above on the console, so no per-run debug lines). */
  log?: Logger;
  /** How often the shared queue is polled (default DEFAULT_POLL_MS). */
  pollMs?: number;
}

export const DEFAULT_LEASE_MS = 30_000;

/** How often running jobs' progress is stored on a shared queue, for polls answered by other instances. */
const PROGRESS_MS = 1000;

export class CompressionService {
  readonly scheduler: Scheduler;
  #core: CompressionCore;
  #admission: Admission;
  #queries: Queries;
  #controls: Controls;
  #retention: Retention;
  #shared: boolean;
  #puller: QueuePuller | undefined;
  #pollMs: number;
  #timers: ReturnType<typeof setInterval>[] = [];

  constructor(opts: CompressionServiceOptions) {
    const now = opts.now ?? Date.now;
    this.#shared = opts.sharedDatabase ?? false;
    this.#pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
    const sharedQueue = opts.sharedQueue ?? false;
    const core: Omit<CompressionCore, "scheduler"> & { scheduler?: Scheduler } = {
      instanceId: opts.instanceId ?? crypto.randomUUID(),
      leaseMs: opts.leaseMs ?? DEFAULT_LEASE_MS,
      db: opts.db,
      transitions: new Transitions(opts.db, now),
      leases: new Leases(opts.db, now),
      queue: new QueueReads(opts.db, now),
      files: new JobFiles(opts.store, opts.maxStoreBytes),
      compressor: opts.compressor,
      now,
      ttlMs: opts.resultTtlMs,
      progress: new Map(),
      endings: new JobEndings(),
      accepting: true,
      sharedQueue,
      log: opts.log ?? createLogger("info"),
      wakeQueue: () => this.#puller?.wake(),
    };
    const files = core.files;
    const runner = new Runner(core as CompressionCore);
    const jobMemory = opts.compressor.jobMemory;
    const memoryBudget = memoryBudgetBytes(opts.maxStoreBytes, opts.compressor.size);
    core.scheduler = new Scheduler(
      opts.compressor.size,
      (job, signal) => runner.run(job, signal),
      jobMemory && {
        // Uploads and results held in memory leave less room for images in work: with a memory
        // store all it holds, with file or S3 only the uploads still arriving (parsed in memory).
        room: () => memoryBudget - (opts.store.kind === "memory" ? files.heldBytes : files.budget.reservedBytes),
        cost: (job) => jobMemory(job.pixels, job.bytes ?? 0, job.formats ?? ["jpeg"]),
      },
    );
    this.#core = core as CompressionCore;
    this.scheduler = this.#core.scheduler;
    this.#admission = new Admission(this.#core);
    this.#queries = new Queries(this.#core);
    this.#controls = new Controls(this.#core, this.#queries);
    this.#retention = new Retention(this.#core, (jobId, pixels) => runner.queueScore(jobId, pixels));
    // An instance without workers (WORKERS=0) serves HTTP only: it never claims a job.
    if (sharedQueue && opts.compressor.size > 0) {
      const puller = new QueuePuller(this.#core, (jobId, pixels) => runner.queueScore(jobId, pixels));
      this.#puller = puller;
      this.scheduler.onSlotFree = () => puller.wake();
      // Give the puller a poll to claim the next job before a deferred score takes a freed slot.
      this.scheduler.backgroundDelayMs = this.#pollMs;
    }
  }

  /** Bytes the store holds or has promised to uploads in flight. */
  get heldBytes(): number {
    return this.#core.files.heldBytes;
  }

  // ---- admission
  openUpload(user: UserRow): Promise<UploadIntake> {
    return this.#admission.openUpload(user);
  }
  admit(user: UserRow, form: UploadForm, intake: UploadIntake, apiKeyId?: string): Promise<Admitted> {
    return this.#admission.admit(user, form, intake, apiKeyId);
  }
  openApiUpload(user: UserRow, settings: SavedSettings): Promise<UploadIntake> {
    return this.#admission.openApiUpload(user, settings);
  }
  recompressJob(user: UserRow, jobId: string, settings: RecompressSettings): Promise<CompressResponse> {
    return this.#admission.recompressJob(user, jobId, settings);
  }
  recompressBatch(user: UserRow, batchId: string, settings: RecompressSettings): Promise<CompressResponse> {
    return this.#admission.recompressBatch(user, batchId, settings);
  }

  // ---- reads
  listJobs(userId: number): Promise<Job[]> {
    return this.#queries.listJobs(userId);
  }
  job(userId: number, jobId: string): Promise<Job> {
    return this.#queries.job(userId, jobId);
  }
  awaitEnd(userId: number, jobId: string, signal: AbortSignal): Promise<EndedJob | null> {
    return this.#queries.awaitEnd(userId, jobId, signal);
  }
  listBatches(userId: number): Promise<Batch[]> {
    return this.#queries.listBatches(userId);
  }
  download(userId: number, jobId: string): Promise<FileDownload> {
    return this.#queries.download(userId, jobId);
  }
  preview(userId: number, jobId: string, size?: PreviewSize): Promise<FileDownload> {
    return this.#queries.preview(userId, jobId, size);
  }
  zipEntries(userId: number, batchId: string, versions?: ZipVersions): Promise<{ name: string; files: ZipFile[] }> {
    return this.#queries.zipEntries(userId, batchId, versions);
  }
  allResults(userId: number, versions?: ZipVersions): Promise<{ name: string; files: ZipFile[] }> {
    return this.#queries.allResults(userId, versions);
  }
  queueStatus(user: UserRow): Promise<QueueStatus> {
    return this.#queries.queueStatus(user);
  }
  usage(user: UserRow): Promise<Usage> {
    return this.#queries.usage(user);
  }

  // ---- controls
  deleteJob(userId: number, jobId: string): Promise<void> {
    return this.#controls.deleteJob(userId, jobId);
  }
  pauseBatch(userId: number, batchId: string): Promise<Batch> {
    return this.#controls.pauseBatch(userId, batchId);
  }
  resumeBatch(userId: number, batchId: string): Promise<Batch> {
    return this.#controls.resumeBatch(userId, batchId);
  }
  cancelBatch(userId: number, batchId: string): Promise<Batch> {
    return this.#controls.cancelBatch(userId, batchId);
  }

  // ---- retention
  sweepExpired(): Promise<number> {
    return this.#retention.sweepExpired();
  }
  sweepStrays(storedBefore?: Date): Promise<string[]> {
    return this.#retention.sweepStrays(storedBefore);
  }
  recoverAfterRestart(): Promise<{ resumed: number; failed: number }> {
    return this.#retention.recoverAfterRestart(this.#shared, this.#core.sharedQueue);
  }

  // ---- leases
  get instanceId(): string {
    return this.#core.instanceId;
  }
  heartbeat(): Promise<void> {
    return this.#retention.heartbeat();
  }
  adoptOrphans(): Promise<{ resumed: number; failed: number }> {
    return this.#retention.adoptOrphans();
  }
  flushProgress(): Promise<void> {
    return this.#retention.flushProgress();
  }

  /**
   * Starts the lease timers: the heartbeat (every third of a lease) and adoption of lapsed leases,
   * or on a shared queue the pull (every pollMs), which takes lapsed leases too, and the progress flush.
   */
  /** A timer's failure, logged (the timer goes on). */
  #logged(task: string): (err: unknown) => void {
    return (error) => this.#core.log.error(`${task} failed`, { error });
  }

  startLeaseTimers(): void {
    const { leaseMs } = this.#core;
    this.#timers.push(
      setInterval(() => void this.heartbeat().catch(this.#logged("heartbeat")), Math.max(1, Math.floor(leaseMs / 3))),
    );
    if (this.#core.sharedQueue) {
      this.#timers.push(
        setInterval(() => void this.#retention.flushProgress().catch(this.#logged("progress flush")), PROGRESS_MS),
      );
      this.#puller?.start(this.#pollMs);
    } else this.#timers.push(setInterval(() => void this.adoptOrphans().catch(this.#logged("adoption")), leaseMs));
  }

  /**
   * Stops admitting uploads, waits (bounded) for running jobs, then gives the jobs still held
   * here back (pending, no owner) for another instance or the next start.
   */
  async drain(timeoutMs: number): Promise<void> {
    this.#core.accepting = false;
    await this.#puller?.stop();
    // The heartbeat goes on while running jobs finish: a lease lapsing now would let another
    // instance run the same job beside this one.
    await this.scheduler.drain(timeoutMs);
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    await this.#retention.releaseAll();
  }
}

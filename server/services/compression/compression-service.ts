/**
 * The compression API (DESIGN §3, §5, §8), composed from its parts: admission.ts (limits, quota,
 * store room), runner.ts (a job on the pool, ended through the lifecycle on every path),
 * queries.ts (reads), controls.ts (delete, pause, resume, cancel), retention.ts (TTL sweep,
 * strays, restart recovery, lease heartbeat and adoption; ADR 018), job-files.ts (the byte
 * store and its cap) and lifecycle.ts (every state change, one transaction each; ADR 017). The
 * routes call this class; it holds no logic of its own.
 */
import type { Batch, CompressResponse, Job, PreviewSize, QueueStatus, Usage } from "../../../contract/jobs.ts";
import type { CompressSettings } from "../../../contract/settings.ts";
import type { Db } from "../../../db/client.ts";
import type { UserRow } from "../../../db/schema.ts";
import { Admission } from "./admission.ts";
import type { ByteStore } from "../../store/mod.ts";
import type { Compressor } from "./compressor.ts";
import { Controls } from "./controls.ts";
import type { CompressionCore } from "./core.ts";
import { JobFiles } from "./job-files.ts";
import { Lifecycle } from "./lifecycle.ts";
import { type FileDownload, Queries, type ZipFile } from "./queries.ts";
import { Retention } from "./retention.ts";
import { Runner } from "./runner.ts";
import { Scheduler } from "./scheduler.ts";
import type { UploadForm } from "./upload-form.ts";
import type { UploadIntake } from "./upload-intake.ts";

export { RESTART_MESSAGE } from "./lifecycle.ts";
export type { FileDownload, ZipFile } from "./queries.ts";

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
}

export const DEFAULT_LEASE_MS = 30_000;

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
  #core: CompressionCore;
  #admission: Admission;
  #queries: Queries;
  #controls: Controls;
  #retention: Retention;
  #shared: boolean;
  #timers: ReturnType<typeof setInterval>[] = [];

  constructor(opts: CompressionServiceOptions) {
    const now = opts.now ?? Date.now;
    this.#shared = opts.sharedDatabase ?? false;
    const core: Omit<CompressionCore, "scheduler"> & { scheduler?: Scheduler } = {
      instanceId: opts.instanceId ?? crypto.randomUUID(),
      leaseMs: opts.leaseMs ?? DEFAULT_LEASE_MS,
      db: opts.db,
      lifecycle: new Lifecycle(opts.db, now),
      files: new JobFiles(opts.store, opts.maxStoreBytes),
      compressor: opts.compressor,
      now,
      ttlMs: opts.resultTtlMs,
      progress: new Map(),
      accepting: true,
    };
    const files = core.files;
    const runner = new Runner(core as CompressionCore);
    const jobMemory = opts.compressor.jobMemory;
    core.scheduler = new Scheduler(
      opts.compressor.size,
      (job, signal) => runner.run(job, signal),
      jobMemory && {
        // Uploads and results held in memory leave less room for images in work: with a memory
        // store all it holds, with file or S3 only the uploads still arriving (parsed in memory).
        room: () => MEMORY_BUDGET_BYTES - (opts.store.kind === "memory" ? files.heldBytes : files.budget.reservedBytes),
        cost: (job) => jobMemory(job.pixels),
      },
    );
    this.#core = core as CompressionCore;
    this.scheduler = this.#core.scheduler;
    this.#admission = new Admission(this.#core);
    this.#queries = new Queries(this.#core);
    this.#controls = new Controls(this.#core, this.#queries);
    this.#retention = new Retention(this.#core, (jobId, pixels) => runner.queueScore(jobId, pixels));
  }

  /** Bytes the store holds or has promised to uploads in flight. */
  get heldBytes(): number {
    return this.#core.files.heldBytes;
  }

  // ---- admission
  openUpload(user: UserRow): Promise<UploadIntake> {
    return this.#admission.openUpload(user);
  }
  admit(user: UserRow, form: UploadForm, intake: UploadIntake): Promise<CompressResponse> {
    return this.#admission.admit(user, form, intake);
  }
  recompressJob(user: UserRow, jobId: string, settings: CompressSettings): Promise<CompressResponse> {
    return this.#admission.recompressJob(user, jobId, settings);
  }
  recompressBatch(user: UserRow, batchId: string, settings: CompressSettings): Promise<CompressResponse> {
    return this.#admission.recompressBatch(user, batchId, settings);
  }

  // ---- reads
  listJobs(userId: number): Promise<Job[]> {
    return this.#queries.listJobs(userId);
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
  zipEntries(userId: number, batchId: string): Promise<{ name: string; files: ZipFile[] }> {
    return this.#queries.zipEntries(userId, batchId);
  }
  allResults(userId: number): Promise<{ name: string; files: ZipFile[] }> {
    return this.#queries.allResults(userId);
  }
  queueStatus(user: UserRow): QueueStatus {
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
    return this.#retention.recoverAfterRestart(this.#shared);
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

  /** Starts the lease timers: the heartbeat (every third of a lease) and adoption of lapsed leases. */
  startLeaseTimers(): void {
    const { leaseMs } = this.#core;
    this.#timers.push(
      setInterval(() => void this.heartbeat().catch(console.error), Math.max(1, Math.floor(leaseMs / 3))),
      setInterval(() => void this.adoptOrphans().catch(console.error), leaseMs),
    );
  }

  /**
   * Stops admitting uploads, waits (bounded) for running jobs, then gives the jobs still held
   * here back (pending, no owner) for another instance or the next start.
   */
  async drain(timeoutMs: number): Promise<void> {
    this.#core.accepting = false;
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    await this.scheduler.drain(timeoutMs);
    await this.#retention.releaseAll();
  }
}

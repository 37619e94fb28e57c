/**
 * The compression core (DESIGN §3, §5, §8), composed from its parts, each given only the
 * collaborators it uses (ADR 034): admission.ts (limits, quota, store room), runner.ts (a job on
 * the pool, ended through a transition on every path), deferred-scores.ts, queries.ts (lists and
 * views), downloads.ts (results, previews, ZIPs), controls.ts (delete, pause, resume, cancel),
 * retention.ts (TTL and stray sweeps), recovery.ts (restart recovery and adoption),
 * lease-keeper.ts (heartbeat; ADR 018), queue-puller.ts (the shared queue), job-queue.ts (where
 * jobs wait: here or in the shared queue), job-files.ts (the byte store and its cap; the one
 * place bytes are freed), over ../lifecycle/ (transitions.ts: every state change, one
 * transaction each, ADR 017; leases.ts; queue-reads.ts) and the reads of db/queries (reads.ts).
 * Routes call the parts directly; this class wires them, runs the lease timers and drains.
 */
import type { Db } from "../../../db/client.ts";
import type { ByteStore } from "../../store/mod.ts";
import { createLogger, type Logger } from "../../log.ts";
import { Leases, type LeaseTerms } from "../lifecycle/leases.ts";
import { QueueReads } from "../lifecycle/queue-reads.ts";
import { Transitions } from "../lifecycle/transitions.ts";
import { Admission } from "./admission.ts";
import type { Compressor } from "./compressor.ts";
import { Controls } from "./controls.ts";
import { DeferredScores } from "./deferred-scores.ts";
import { Downloads } from "./downloads.ts";
import { JobEndings } from "./job-endings.ts";
import { HeadStarts } from "./head-starts.ts";
import { JobFiles } from "./job-files.ts";
import { LocalQueue, SharedQueue } from "./job-queue.ts";
import { LeaseKeeper } from "./lease-keeper.ts";
import { memoryBudgetBytes } from "./memory-budget.ts";
import { Queries } from "./queries.ts";
import { DEFAULT_POLL_MS, QueuePuller } from "./queue-puller.ts";
import { compressionReads } from "./reads.ts";
import { Recovery } from "./recovery.ts";
import { Retention } from "./retention.ts";
import { Runner } from "./runner.ts";
import { Scheduler, type WorkBudget } from "./scheduler.ts";

export { RESTART_MESSAGE } from "../lifecycle/transitions.ts";

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

/**
 * What jobs in work may use: uploads and results held in memory leave less room for images in
 * work (with a memory store all it holds, with file or S3 only the uploads still arriving).
 */
function workBudget(opts: CompressionServiceOptions, files: JobFiles): WorkBudget | undefined {
  const jobMemory = opts.compressor.jobMemory;
  if (!jobMemory) return undefined;
  const budget = memoryBudgetBytes(opts.maxStoreBytes, opts.compressor.size);
  return {
    room: () => budget - (opts.store.kind === "memory" ? files.heldBytes : files.budget.reservedBytes),
    cost: (job) => jobMemory(job.pixels, job.bytes ?? 0, job.perPixel),
  };
}

export class CompressionService {
  /** Uploads and re-compressions. */
  readonly admission: Admission;
  /** Job and batch lists, one job, queue status, usage. */
  readonly queries: Queries;
  /** Results, previews and ZIPs. */
  readonly downloads: Downloads;
  /** Delete a job; pause, resume, cancel a batch. */
  readonly controls: Controls;
  /** The TTL and stray sweeps. */
  readonly retention: Retention;
  /** Restart recovery and adoption of lapsed leases. */
  readonly recovery: Recovery;
  /** Heartbeat, progress flush, release on shutdown. */
  readonly leaseKeeper: LeaseKeeper;
  readonly scheduler: Scheduler;
  /** Work begun on uploads' files as they arrive (ADR 056); none on a shared queue or without workers. */
  readonly headStarts: HeadStarts | undefined;
  /** This process's id: the owner of the leases it holds (ADR 018). */
  readonly instanceId: string;
  #files: JobFiles;
  #lease: LeaseTerms;
  #sharedQueue: boolean;
  #puller: QueuePuller | undefined;
  #pollMs: number;
  #log: Logger;
  #timers: ReturnType<typeof setInterval>[] = [];

  constructor(opts: CompressionServiceOptions) {
    const { db, compressor } = opts;
    const now = opts.now ?? Date.now;
    const log = opts.log ?? createLogger("info");
    const sharedQueue = opts.sharedQueue ?? false;
    const lease: LeaseTerms = { owner: opts.instanceId ?? crypto.randomUUID(), ms: opts.leaseMs ?? DEFAULT_LEASE_MS };
    const ttlMs = opts.resultTtlMs;
    const reads = compressionReads(db);
    const transitions = new Transitions(db, now);
    const leases = new Leases(db, now);
    const queue = new QueueReads(db, now);
    const files = new JobFiles(opts.store, opts.maxStoreBytes);
    /** Live progress of the runs here, so polling never waits on a database write. */
    const progress = new Map<string, number>();
    /** Wakes callers waiting for a job when a run here ends it (the API's synchronous compress). */
    const endings = new JobEndings();

    // The scheduler knows the runner only as this callback, and the runner never sees the
    // scheduler: its effects on the queue go through jobQueue and scoreDue (ADR 034).
    const scheduler: Scheduler = new Scheduler(
      compressor.size,
      (job, signal, lanes) => runner.run(job, signal, lanes),
      workBudget(opts, files),
    );
    const scores = new DeferredScores({
      scheduler,
      sharedQueue,
      leases,
      lease,
      now,
      files,
      compressor,
      transitions,
      log,
    });
    const rescore = (jobId: string, pixels: number) => scores.queue(jobId, pixels);
    // An instance without workers (WORKERS=0) serves HTTP only: it never claims a job.
    const puller = sharedQueue && compressor.size > 0
      ? new QueuePuller({ scheduler, queue, reads, leases, lease, now, rescore, log })
      : undefined;
    const jobQueue = sharedQueue
      ? new SharedQueue({ wake: () => puller?.wake(), scheduler, leases, queue, lease })
      : new LocalQueue({ scheduler, reads, lease });
    // Work begun on an upload's files as they arrive is this instance's: none on a shared queue (ADR 056).
    const headStarts = sharedQueue || compressor.size === 0 ? undefined : new HeadStarts({ scheduler, compressor });
    if (headStarts) endings.listen((ids) => headStarts.forget(ids));
    const runner = new Runner({
      reads,
      transitions,
      leases,
      files,
      compressor,
      headStarts,
      jobQueue,
      lease,
      now,
      ttlMs,
      progress,
      endings,
      scoreDue: rescore,
      log,
    });

    this.admission = new Admission({ reads, transitions, files, jobQueue, headStarts, now, ttlMs });
    this.queries = new Queries({ reads, progress, endings, jobQueue, now });
    this.downloads = new Downloads({ reads, files, now });
    this.controls = new Controls({ reads, transitions, scheduler, endings, files, queries: this.queries });
    this.retention = new Retention({ reads, transitions, files, ttlMs, now });
    this.recovery = new Recovery({
      reads,
      transitions,
      leases,
      files,
      scheduler,
      endings,
      rescore,
      lease,
      now,
      sharedDatabase: opts.sharedDatabase ?? false,
      sharedQueue,
    });
    this.leaseKeeper = new LeaseKeeper({ leases, scheduler, progress, lease, now });
    this.scheduler = scheduler;
    this.headStarts = headStarts;
    this.instanceId = lease.owner;
    this.#files = files;
    this.#lease = lease;
    this.#sharedQueue = sharedQueue;
    this.#pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
    this.#log = log;
    if (puller) {
      this.#puller = puller;
      scheduler.onSlotFree = () => puller.wake();
      // Give the puller a poll to claim the next job before a deferred score takes a freed slot.
      scheduler.backgroundDelayMs = this.#pollMs;
    }
  }

  /** Bytes the store holds or has promised to uploads in flight. */
  get heldBytes(): number {
    return this.#files.heldBytes;
  }

  /** A timer's failure, logged (the timer goes on). */
  #logged(task: string): (err: unknown) => void {
    return (error) => this.#log.error(`${task} failed`, { error });
  }

  /**
   * Starts the lease timers: the heartbeat (every third of a lease) and adoption of lapsed leases,
   * or on a shared queue the pull (every pollMs), which takes lapsed leases too, and the progress flush.
   */
  startLeaseTimers(): void {
    const leaseMs = this.#lease.ms;
    const keeper = this.leaseKeeper;
    this.#timers.push(
      setInterval(() => void keeper.heartbeat().catch(this.#logged("heartbeat")), Math.max(1, Math.floor(leaseMs / 3))),
    );
    if (this.#sharedQueue) {
      this.#timers.push(
        setInterval(() => void keeper.flushProgress().catch(this.#logged("progress flush")), PROGRESS_MS),
      );
      this.#puller?.start(this.#pollMs);
    } else {
      this.#timers.push(
        setInterval(() => void this.recovery.adoptOrphans().catch(this.#logged("adoption")), leaseMs),
      );
    }
  }

  /**
   * Stops admitting uploads, waits (bounded) for running jobs, then gives the jobs still held
   * here back (pending, no owner) for another instance or the next start.
   */
  async drain(timeoutMs: number): Promise<void> {
    this.admission.stopAccepting();
    await this.#puller?.stop();
    // The heartbeat goes on while running jobs finish: a lease lapsing now would let another
    // instance run the same job beside this one.
    await this.scheduler.drain(timeoutMs);
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    await this.leaseKeeper.releaseAll();
  }
}

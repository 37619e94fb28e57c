/**
 * Bounded pool of codec workers. Compared with libsquoosh's WorkerPool it
 * adds a queue cap, priorities, per-job timeouts and abort (both terminate
 * and respawn the worker, the only way to stop a running WASM call),
 * crash isolation, listener cleanup, and recycling, because WASM memory
 * grows with the largest image and never shrinks. It makes no policy: which
 * job runs next, and how much memory images in work may take, is the
 * server's scheduler's call (server/services/compression/scheduler.ts).
 */
import type { CompressSettings } from "../../contract/settings.ts";
import { CodecError, fromCodecErrorData } from "../errors.ts";
import type { CompressResult, ImageInput, MeasuredResult, ProgressCallback, QualityReport } from "../types.ts";
import { returnFreedMemory } from "../libc.ts";
import type { FromWorker, ToWorker, WorkerTask } from "./protocol.ts";
import { joinSetParts, newSetPart, setLanes, type SetPart } from "../pipeline/web-set.ts";
import { type CodecWorker, createWorkerHost } from "./worker-host.ts";

export interface CodecPoolOptions {
  /** Number of workers (DESIGN: `WORKERS`, default the CPU count). */
  size: number;
  /**
   * Per-job limit, from the moment its worker takes the job to its answer; the worker is replaced when
   * exceeded. A worker still starting (the host compiling the codecs, a new thread building its runtime,
   * slow on a busy machine: the workers run at a lower priority) is not the job's time.
   */
  jobTimeoutMs: number;
  /** Jobs waiting for a worker; one more is refused with `queue_full`. */
  maxQueue: number;
  /** Default pixel limit per image (overridable per call). Default 50 MP. */
  maxPixels?: number;
  /** Replace a worker after this many jobs. Default 200. */
  recycleAfterJobs?: number;
  /**
   * Replace a worker once its codec heaps hold this many bytes (they grow with
   * the largest image and never shrink). Default 160 MiB: a worker is kept after
   * images up to about 7 MP (4.1 MP leaves 92 MiB, 6.3 MP 134 MiB, 20.4 MP
   * 399 MiB, measured), so it stays warm instead of starting afresh.
   */
  recycleAfterHeapBytes?: number;
  /**
   * The codec worker module (default ./worker.ts). Another module that speaks protocol.ts may
   * stand in, e.g. one whose codec fails the way a real one can (tests/setup/crashing-codec-worker.ts).
   */
  workerUrl?: string | URL;
  /** The module that starts and stops codec workers off this thread (default ./host-worker.ts). */
  hostUrl?: string | URL;
}

export interface CompressOptions {
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
  /** Higher runs first; FIFO among equals. Default 0. */
  priority?: number;
  /** Pixel limit for this image (e.g. the user's plan). */
  maxPixels?: number;
  /** This job's time limit instead of the pool's `jobTimeoutMs` (a web set makes many outputs). */
  timeoutMs?: number;
  /**
   * Return the result unmeasured (`quality: null`) unless a score goal needs the
   * metric; measure it later with `score`, so the result is ready sooner.
   */
  deferScore?: boolean;
  /**
   * Workers this job may take (default 1): a web set with more than one width is split into that many parts
   * (at most `setLanes`), run side by side and joined. The caller grants it only when the workers are
   * free (the server's scheduler, to a set that runs alone).
   */
  lanes?: number;
}

export interface ScoreOptions {
  signal?: AbortSignal;
  /** Higher runs first; FIFO among equals. Default 0. */
  priority?: number;
}

export interface PoolStats {
  size: number;
  busy: number;
  queued: number;
  /** Workers ended and started anew since the pool started (crashes, timeouts, recycling). */
  replaced: number;
}

export interface CodecPool {
  /**
   * Compresses one JPEG. The input's buffer is moved into the pool (it is
   * detached in the caller): pass `bytes.slice()` to keep a copy. A Blob is
   * shared with the worker as it is (no copy on this thread).
   */
  compress(
    bytes: ImageInput,
    settings: CompressSettings,
    options?: CompressOptions & { deferScore?: false },
  ): Promise<MeasuredResult>;
  compress(bytes: ImageInput, settings: CompressSettings, options: CompressOptions): Promise<CompressResult>;
  /**
   * The quality report of `output` (a result of `compress`) against its
   * `original`. Both buffers are moved into the pool, as with `compress`.
   */
  score(original: ImageInput, output: ImageInput, options?: ScoreOptions): Promise<QualityReport>;
  /** The JPEG a JPEG XL file holds, byte for byte; the input is moved into the pool. */
  restore(jxl: ImageInput, options?: ScoreOptions): Promise<Uint8Array>;
  stats(): PoolStats;
  /** Stops accepting jobs, lets queued and running ones finish, then ends the workers. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  priority: number;
  task: WorkerTask;
  options: { signal?: AbortSignal; onProgress?: ProgressCallback; timeoutMs?: number };
  resolve: (result: CompressResult | QualityReport | Uint8Array) => void;
  reject: (error: Error) => void;
  /** Starts the job's timeout, once its worker has taken it (its `started` message). */
  startClock: () => void;
  cleanup: () => void;
}

interface Slot {
  worker: CodecWorker;
  job: Job | null;
  jobsDone: number;
}

const DEFAULT_MAX_PIXELS = 50_000_000;
const DEFAULT_RECYCLE_HEAP_BYTES = 160 * 2 ** 20;
const WORKER_URL = new URL("./worker.ts", import.meta.url);
const HOST_URL = new URL("./host-worker.ts", import.meta.url);

export function createCodecPool(options: CodecPoolOptions): CodecPool {
  if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError("size must be a positive integer");
  const defaultMaxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const recycleAfterJobs = options.recycleAfterJobs ?? 200;
  const recycleAfterHeapBytes = options.recycleAfterHeapBytes ?? DEFAULT_RECYCLE_HEAP_BYTES;
  const queue: Job[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;
  let drained: (() => void) | null = null;

  // Workers are started off this thread, so recycling never stalls the server. One spare for the pool, not one
  // per worker: replacements are rare since heaps are given back (a crash, a timeout, a cancel, every 200 jobs),
  // and each idle spare held about 21 MB of the process's memory (ADR 040).
  const host = createWorkerHost({
    spares: 1,
    hostUrl: String(options.hostUrl ?? HOST_URL),
    workerUrl: String(options.workerUrl ?? WORKER_URL),
  });

  const startWorker = (slot: Slot) => {
    slot.worker = host.spawn({
      onMessage: (message) => onMessage(slot, message),
      // A crash fails its own job, never the process.
      onCrash: () => {
        startWorker(slot);
        finish(slot, new CodecError("worker_crashed", "The codec worker crashed while processing the image"));
      },
    });
    slot.jobsDone = 0;
  };

  const spawn = (): Slot => {
    const slot = { job: null, jobsDone: 0 } as unknown as Slot;
    startWorker(slot);
    return slot;
  };

  /** Terminating is the only way to stop a running WASM call; it also frees the grown heap. */
  let replaced = 0;
  const replace = (slot: Slot) => {
    replaced++;
    slot.worker.terminate();
    startWorker(slot);
  };

  /** `heapBytes`: what the worker's codec heaps hold after the job, when it reported them. */
  const finish = (slot: Slot, outcome: CompressResult | QualityReport | Uint8Array | Error, heapBytes = 0) => {
    const job = slot.job;
    if (!job) return;
    slot.job = null;
    slot.jobsDone++;
    job.cleanup();
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
    if (slot.jobsDone >= recycleAfterJobs || heapBytes >= recycleAfterHeapBytes) replace(slot);
    dispatch();
  };

  const onMessage = (slot: Slot, message: FromWorker) => {
    const job = slot.job;
    if (!job || message.id !== job.id) return;
    if (message.type === "started") job.startClock();
    else if (message.type === "progress") job.options.onProgress?.(message.stage, message.percent);
    else if (message.type === "result") finish(slot, message.result, message.heapBytes);
    else if (message.type === "scored") finish(slot, message.report, message.heapBytes);
    else if (message.type === "restored") finish(slot, message.jpeg, message.heapBytes);
    else if (message.recycle) {
      replace(slot);
      finish(slot, fromCodecErrorData(message.error));
    } else finish(slot, fromCodecErrorData(message.error), message.heapBytes);
  };

  const dispatch = () => {
    for (const slot of slots) {
      if (slot.job) continue;
      const job = queue.shift();
      if (!job) break;
      start(slot, job);
    }
    if (closed && queue.length === 0 && slots.every((s) => !s.job)) drained?.();
  };

  const start = (slot: Slot, job: Job) => {
    slot.job = job;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = job.options.timeoutMs ?? options.jobTimeoutMs;
    job.startClock = () => {
      timer ??= setTimeout(() => {
        replace(slot);
        finish(
          slot,
          new CodecError("timeout", `The image took longer than ${formatSeconds(limit)} to process`),
        );
      }, limit);
    };
    const onAbort = () => {
      replace(slot);
      finish(slot, abortedError());
    };
    job.options.signal?.addEventListener("abort", onAbort, { once: true });
    job.cleanup = () => {
      clearTimeout(timer);
      job.options.signal?.removeEventListener("abort", onAbort);
    };
    job.options.onProgress?.("inspect", 1);
    const message: ToWorker = { ...job.task, id: job.id };
    const inputs = job.task.type === "score" ? [job.task.original, job.task.output] : [job.task.bytes];
    const buffers = inputs.filter((b) => b instanceof Uint8Array).map((b) => b.buffer as ArrayBuffer);
    slot.worker.postMessage(message, [...new Set(buffers)]);
  };

  const enqueue = (job: Job) => {
    // Higher priority first; equal priorities keep arrival order.
    let at = queue.length;
    while (at > 0 && queue[at - 1]!.priority < job.priority) at--;
    queue.splice(at, 0, job);
  };

  /** Queues one task; the promise settles with the worker's answer. */
  const submit = <T extends CompressResult | QualityReport | Uint8Array>(
    task: WorkerTask,
    priority: number,
    jobOptions: Job["options"],
  ): Promise<T> => {
    if (closed) return Promise.reject(new CodecError("closed", "The codec pool is shutting down"));
    if (jobOptions.signal?.aborted) return Promise.reject(abortedError());
    const idle = slots.some((s) => !s.job);
    if (!idle && queue.length >= options.maxQueue) {
      return Promise.reject(new CodecError("queue_full", "The server is busy; please try again in a moment"));
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        id: nextId++,
        priority,
        task,
        options: jobOptions,
        resolve: (result) => resolve(result as T),
        reject,
        startClock: () => {},
        cleanup: () => {},
      };
      const signal = jobOptions.signal;
      if (signal) {
        const onQueuedAbort = () => {
          const index = queue.indexOf(job);
          if (index >= 0) {
            queue.splice(index, 1);
            reject(abortedError());
            dispatch();
          }
        };
        signal.addEventListener("abort", onQueuedAbort, { once: true });
        const resolveJob = job.resolve, rejectJob = job.reject;
        job.resolve = (r) => {
          signal.removeEventListener("abort", onQueuedAbort);
          resolveJob(r);
        };
        job.reject = (e) => {
          signal.removeEventListener("abort", onQueuedAbort);
          rejectJob(e);
        };
      }
      jobOptions.onProgress?.("queued", 0);
      enqueue(job);
      dispatch();
    });
  };

  /** A compress task; the input is taken over now (a transfer, not a copy) so the caller cannot mutate it. */
  const compressTask = (
    bytes: ImageInput,
    settings: CompressSettings,
    compressOptions: CompressOptions,
    part?: SetPart,
  ): WorkerTask => ({
    type: "compress",
    bytes: own(bytes),
    settings,
    maxPixels: compressOptions.maxPixels ?? defaultMaxPixels,
    // A set always measures its files.
    deferScore: part ? false : compressOptions.deferScore ?? false,
    part,
  });

  /**
   * A web set's parts on `parts` workers: each part gets its own copy of the input, progress is their mean,
   * the first failure cancels the others and is the job's.
   */
  const compressParts = async (
    bytes: ImageInput,
    settings: CompressSettings,
    compressOptions: CompressOptions,
    parts: number,
  ): Promise<CompressResult> => {
    // A Blob is shared as it is; a buffer is copied for every part but the last, which takes it over.
    const inputs = Array.from(
      { length: parts },
      (_, i) => i === parts - 1 || bytes instanceof Blob ? bytes : bytes.slice(),
    );
    const cancel = new AbortController();
    const outer = compressOptions.signal;
    const onOuterAbort = () => cancel.abort(outer!.reason);
    outer?.addEventListener("abort", onOuterAbort, { once: true });
    const percents = Array.from({ length: parts }, () => 0);
    const part = newSetPart(parts);
    try {
      return joinSetParts(
        await Promise.all(inputs.map((input, index) =>
          submit<CompressResult>(
            compressTask(input, settings, compressOptions, part),
            compressOptions.priority ?? 0,
            {
              signal: cancel.signal,
              timeoutMs: compressOptions.timeoutMs,
              onProgress: (stage, percent) => {
                percents[index] = percent;
                compressOptions.onProgress?.(stage, Math.round(percents.reduce((a, b) => a + b) / parts));
              },
            },
          ).catch((error) => {
            cancel.abort();
            throw error;
          })
        )),
        settings.formats,
      );
    } finally {
      outer?.removeEventListener("abort", onOuterAbort);
    }
  };

  const pool: CodecPool = {
    compress(bytes: ImageInput, settings: CompressSettings, compressOptions: CompressOptions = {}) {
      const parts = Math.min(compressOptions.lanes ?? 1, setLanes(settings), slots.length);
      // deno-lint-ignore no-explicit-any -- one body for both overloads
      if (parts > 1) return compressParts(bytes, settings, compressOptions, parts) as any;
      const task = compressTask(bytes, settings, compressOptions);
      // deno-lint-ignore no-explicit-any -- one body for both overloads
      return submit<CompressResult>(task, compressOptions.priority ?? 0, compressOptions) as any;
    },
    restore(jxl, restoreOptions = {}) {
      return submit<Uint8Array>({ type: "restore", bytes: own(jxl) }, restoreOptions.priority ?? 0, restoreOptions);
    },
    score(original, output, scoreOptions = {}) {
      const task: WorkerTask = { type: "score", original: own(original), output: own(output) };
      return submit<QualityReport>(task, scoreOptions.priority ?? 0, scoreOptions);
    },
    stats: () => ({ size: slots.length, busy: slots.filter((s) => s.job).length, queued: queue.length, replaced }),
    close() {
      closed = true;
      return new Promise<void>((resolve) => {
        drained = () => {
          drained = null;
          host.close().then(resolve);
        };
        dispatch();
      });
    },
  };

  returnFreedMemory();
  for (let i = 0; i < options.size; i++) slots.push(spawn());
  return pool;
}

/** Moves a whole buffer (no copy), or copies a view of part of one; a Blob is immutable as it is. */
function own(bytes: ImageInput): ImageInput {
  if (bytes instanceof Blob) return bytes;
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? structuredClone(bytes, { transfer: [bytes.buffer as ArrayBuffer] })
    : bytes.slice();
}

function abortedError(): CodecError {
  return new CodecError("aborted", "The compression was cancelled");
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

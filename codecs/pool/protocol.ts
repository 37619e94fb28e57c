/** Messages between the pool (main thread) and a codec worker. */
import type { CompressSettings } from "../../contract/settings.ts";
import type { CodecErrorData } from "../errors.ts";
import type { CompressResult, CompressStage, ImageInput, QualityReport } from "../types.ts";
import type { CompiledModules } from "../wasm.ts";
import type { SetPart } from "../pipeline/web-set.ts";

/** A task without its id: what the pool queues. */
export type WorkerTask =
  | {
    type: "compress";
    bytes: ImageInput;
    settings: CompressSettings;
    maxPixels: number;
    deferScore: boolean;
    /** A web set split over several workers: this task's part of it. */
    part?: SetPart;
  }
  /** A deferred score: the output measured against its original. */
  | { type: "score"; original: ImageInput; output: ImageInput }
  /** A JPEG XL file's JPEG, byte for byte (issue 32). */
  | { type: "restore"; bytes: ImageInput };

export type ToWorker = WorkerTask & { id: number };

export type FromWorker =
  /**
   * The worker has taken the task: it is up (runtime built, modules loaded) and runs it now. The pool's
   * job timeout counts from here, so a worker still starting is not charged to the job it was given.
   */
  | { type: "started"; id: number }
  | { type: "progress"; id: number; stage: CompressStage; percent: number }
  /** `heapBytes`: what the worker's codec heaps hold now (they never shrink). */
  | { type: "result"; id: number; result: CompressResult; heapBytes: number }
  | { type: "scored"; id: number; report: QualityReport; heapBytes: number }
  | { type: "restored"; id: number; jpeg: Uint8Array; heapBytes: number }
  /** `recycle`: the WASM instance may be inconsistent after this error; replace the worker. */
  | { type: "error"; id: number; error: CodecErrorData; recycle: boolean; heapBytes: number };

/** Messages between the pool and the host worker that starts and stops codec workers. */
export type ToHost =
  /** The host's first message: start codec workers from `workerUrl`, keeping `spares` started ahead. */
  | { type: "start"; workerUrl: string; spares: number }
  /** Start a codec worker that talks to the pool over `port`. */
  | { type: "spawn"; id: number; port: MessagePort }
  | { type: "terminate"; id: number }
  /** Terminate every codec worker, then answer `closed`. */
  | { type: "close" };

export type FromHost =
  /** The codec worker threw an uncaught error and has been terminated. */
  | { type: "crashed"; id: number }
  | { type: "closed" };

/** The host's messages to a codec worker: `warm` on start, `connect` when it is taken into service. */
export type WarmWorker = { type: "warm"; modules: CompiledModules };
export type ConnectWorker = { type: "connect"; port: MessagePort };

/** Messages between the pool (main thread) and a codec worker. */
import type { CompressSettings } from "../../contract/settings.ts";
import type { CodecErrorData } from "../errors.ts";
import type { CompressResult, CompressStage, ImageInput, QualityReport } from "../types.ts";
import type { CompiledModules } from "../wasm.ts";

/** A task without its id: what the pool queues. */
export type WorkerTask =
  | { type: "compress"; bytes: ImageInput; settings: CompressSettings; maxPixels: number; deferScore: boolean }
  /** A deferred score: the output measured against its original. */
  | { type: "score"; original: ImageInput; output: ImageInput };

/** `crash` (test hook): throw an uncaught error inside the worker instead of running the task. */
export type ToWorker = WorkerTask & { id: number; crash?: true };

export type FromWorker =
  | { type: "progress"; id: number; stage: CompressStage; percent: number }
  /** `heapBytes`: what the worker's codec heaps hold now (they never shrink). */
  | { type: "result"; id: number; result: CompressResult; heapBytes: number }
  | { type: "scored"; id: number; report: QualityReport; heapBytes: number }
  /** `recycle`: the WASM instance may be inconsistent after this error; replace the worker. */
  | { type: "error"; id: number; error: CodecErrorData; recycle: boolean; heapBytes: number };

/** Messages between the pool and the host worker that starts and stops codec workers. */
export type ToHost =
  /** Keep this many workers started ahead, ready for a port. */
  | { type: "spares"; count: number }
  /** Start a codec worker that talks to the pool over `port`. */
  | { type: "spawn"; id: number; port: MessagePort }
  | { type: "terminate"; id: number }
  /** Terminate every codec worker, then answer `closed`. */
  | { type: "close" }
  /** Test hook: throw an uncaught error in the host. */
  | { type: "crash" };

export type FromHost =
  /** The codec worker threw an uncaught error and has been terminated. */
  | { type: "crashed"; id: number }
  | { type: "closed" };

/** The host's messages to a codec worker: `warm` on start, `connect` when it is taken into service. */
export type WarmWorker = { type: "warm"; modules: CompiledModules };
export type ConnectWorker = { type: "connect"; port: MessagePort };

/** Messages between the pool (main thread) and a codec worker. */
import type { CompressSettings } from "../../contract/settings.ts";
import type { CodecErrorData } from "../errors.ts";
import type { CompressResult, CompressStage } from "../types.ts";

export type ToWorker =
  | { type: "compress"; id: number; bytes: Uint8Array; settings: CompressSettings; maxPixels: number }
  /** Test hook: throw an uncaught error inside the worker. */
  | { type: "crash" };

export type FromWorker =
  | { type: "progress"; id: number; stage: CompressStage; percent: number }
  | { type: "result"; id: number; result: CompressResult }
  /**
   * `recycle`: the WASM instance may be inconsistent after this error; replace the worker.
   * `wasmUsed`: the job got past the header checks into the codec (its heap may have grown).
   */
  | { type: "error"; id: number; error: CodecErrorData; recycle: boolean; wasmUsed: boolean };

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
export type WarmWorker = { type: "warm" };
export type ConnectWorker = { type: "connect"; port: MessagePort };

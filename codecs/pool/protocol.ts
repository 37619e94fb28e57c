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
  /** `recycle`: the WASM instance may be inconsistent after this error; replace the worker. */
  | { type: "error"; id: number; error: CodecErrorData; recycle: boolean };

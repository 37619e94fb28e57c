/**
 * JPEG ⇄ JPEG XL, losslessly, as a job step (issue 32): one transcoder per worker (the module compiled once,
 * `wasm.ts`). Its memory never shrinks (wasi-libc never gives memory back) and counts in the worker's heaps
 * (`trackHeap`), so the pool replaces a worker that a large image grew past its recycling threshold: the memory
 * goes with the thread at once, not whenever a garbage collection would find a dropped instance.
 */
import { DEFAULT_JXL_EFFORT, jxlModule, type JxlTranscoder, loadJxlTranscoder } from "./transcode.ts";

let shared: JxlTranscoder | null = null;
const transcoder = () => shared ??= loadJxlTranscoder(jxlModule());

/** The JPEG as JPEG XL with its reconstruction data (libjxl effort 1-10, default 7). */
export const jpegToJxl = (jpeg: Uint8Array, effort = DEFAULT_JXL_EFFORT): Uint8Array<ArrayBuffer> =>
  transcoder().jpegToJxl(jpeg, effort);

/** The JPEG a JPEG XL file holds, byte for byte (ours, or any libjxl `cjxl` transcode). */
export const jxlToJpeg = (jxl: Uint8Array): Uint8Array<ArrayBuffer> => transcoder().jxlToJpeg(jxl);

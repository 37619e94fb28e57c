/**
 * JPEG ⇄ JPEG XL, losslessly, as a job step (issue 32): one transcoder per worker (the module compiled once,
 * `wasm.ts`), its instance dropped after a large image, since wasi-libc never gives memory back and the worker's
 * budget counts what it holds.
 */
import { DEFAULT_JXL_EFFORT, jxlModule, type JxlTranscoder, loadJxlTranscoder } from "./transcode.ts";

/** An instance that grew past this (about a 4 MP encode) is dropped after its job: the next one starts small. */
const KEEP_INSTANCE_BELOW_BYTES = 256 * 1024 * 1024;

let shared: JxlTranscoder | null = null;
const transcoder = () => shared ??= loadJxlTranscoder(jxlModule());

function afterwards<T>(result: T): T {
  if (transcoder().memoryBytes() > KEEP_INSTANCE_BELOW_BYTES) transcoder().reset();
  return result;
}

/** The JPEG as JPEG XL with its reconstruction data (libjxl effort 1-10, default 7). */
export function jpegToJxl(jpeg: Uint8Array, effort = DEFAULT_JXL_EFFORT): Uint8Array<ArrayBuffer> {
  try {
    return afterwards(transcoder().jpegToJxl(jpeg, effort));
  } catch (error) {
    throw afterwards(error);
  }
}

/** The JPEG a JPEG XL file holds, byte for byte (ours, or any libjxl `cjxl` transcode). */
export function jxlToJpeg(jxl: Uint8Array): Uint8Array<ArrayBuffer> {
  try {
    return afterwards(transcoder().jxlToJpeg(jxl));
  } catch (error) {
    throw afterwards(error);
  }
}

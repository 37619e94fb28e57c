/**
 * Lossless JPEG ⇄ JPEG XL through our libjxl build (entry.cc, scripts/build-jxl-wasm.sh): a JPEG's own
 * coefficients and the data to rebuild its bytes go into a JPEG XL container, and come back out as the very same
 * JPEG, byte for byte. No pixels are decoded either way.
 *
 * The module is a WASI reactor whose only imports are five WASI calls (stdio and exit), stubbed here. Bad input
 * never traps: entry.cc returns a status code, thrown here as a `JxlTranscodeError`. Only an allocation failing
 * inside libjxl's C++ containers traps; the instance is then thrown away and the next call starts a fresh one.
 *
 * Memory: encoding takes about 55-65 bytes per pixel of WASM memory (../shared/vendor/README.md; measured again in
 * codecs/README.md), and wasi-libc's malloc never gives memory back to the WASM memory, which itself never
 * shrinks: after a large image the instance keeps its size. `memoryBytes()` tells it, and `reset()` drops the
 * instance so a pool can recycle it.
 */
import { CodecError, type CodecErrorCode } from "../errors.ts";
import { adviseHugePages } from "../libc.ts";
import { compiledModuleSync, JXL_WASM, trackHeap } from "../wasm.ts";

/** libjxl's default effort, as `cjxl` uses it; 1 (fastest) to 10. */
export const DEFAULT_JXL_EFFORT = 7;

/** entry.cc's status codes, by name. */
export const JXL_STATUS = {
  ok: 0,
  not_jpeg: 1,
  unsupported_jpeg: 2,
  corrupt_jpeg: 3,
  not_jxl: 4,
  truncated_jxl: 5,
  invalid_jxl: 6,
  no_reconstruction: 7,
  out_of_memory: 8,
  bad_argument: 9,
  internal: 10,
  too_large: 11,
} as const;
export type JxlFailure = Exclude<keyof typeof JXL_STATUS, "ok">;

/** Per failure: the closest existing CodecError code and the message a user reads. */
const FAILURES: Readonly<Record<JxlFailure, readonly [CodecErrorCode, string]>> = {
  not_jpeg: ["unsupported_format", "The file is not a JPEG: only a JPEG can be transcoded to JPEG XL losslessly"],
  unsupported_jpeg: [
    "unsupported_format",
    "This JPEG cannot be transcoded to JPEG XL losslessly: arithmetic-coded, lossless, hierarchical, 12-bit and " +
    "CMYK JPEGs are not supported",
  ],
  corrupt_jpeg: ["corrupt_image", "The JPEG is damaged or incomplete, so it cannot be transcoded to JPEG XL"],
  not_jxl: ["unsupported_format", "The file is not a JPEG XL image"],
  truncated_jxl: ["corrupt_image", "The JPEG XL file is incomplete: it ends before its JPEG can be rebuilt"],
  invalid_jxl: ["corrupt_image", "The JPEG XL file is damaged, so its JPEG cannot be rebuilt"],
  no_reconstruction: [
    "unsupported_format",
    "This JPEG XL file was not made from a JPEG (it has no JPEG reconstruction data), so there is no original " +
    "JPEG to restore",
  ],
  out_of_memory: ["too_many_pixels", "Not enough memory to transcode this image between JPEG and JPEG XL"],
  bad_argument: ["invalid_settings", "The JPEG XL effort must be a whole number from 1 to 10"],
  internal: ["corrupt_image", "JPEG XL transcoding failed on this file"],
  too_large: [
    "too_many_pixels",
    "The image is too large to transcode to JPEG XL: over 268 MP",
  ],
};

/** A transcoding failure: a CodecError (its `code` for the server) that also names entry.cc's status. */
export class JxlTranscodeError extends CodecError {
  constructor(readonly failure: JxlFailure, detail?: string) {
    const [code, message] = FAILURES[failure];
    super(code, detail ? `${message} (${detail})` : message);
  }
}

export interface JxlTranscoder {
  /** The JPEG as JPEG XL (a container with its reconstruction data), losslessly. `effort`: 1-10. */
  jpegToJxl(jpeg: Uint8Array, effort?: number): Uint8Array<ArrayBuffer>;
  /** The JPEG a JPEG XL file was transcoded from (by us or any libjxl `cjxl`), byte for byte. */
  jxlToJpeg(jxl: Uint8Array): Uint8Array<ArrayBuffer>;
  /** Bytes of WASM memory the current instance holds (0 without one): it grows with the largest image, never shrinks. */
  memoryBytes(): number;
  /** Drops the instance (its memory goes with it); the next call instantiates afresh. */
  reset(): void;
}

interface JxlExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  jxl_malloc(size: number): number;
  jxl_free(pointer: number): void;
  jxl_alloc_failed(): number;
  jxl_from_jpeg(jpeg: number, length: number, effort: number, out: number, outLength: number): number;
  jpeg_from_jxl(jxl: number, length: number, out: number, outLength: number): number;
}

/** WASM memory can grow to 4 GiB: huge pages are advised over the first 2 GiB, as for the other codecs. */
const HEAP_RESERVE_BYTES = 2 ** 31;
const ENOSYS = 52;

function instantiate(module: WebAssembly.Module): JxlExports {
  // entry.cc never writes or exits on purpose (libjxl's own messages are compiled out with NDEBUG): these only
  // satisfy the imports, and an exit unwinds the call like a trap.
  const wasi = {
    fd_close: () => ENOSYS,
    fd_fdstat_get: () => ENOSYS,
    fd_seek: () => ENOSYS,
    fd_write: () => ENOSYS,
    proc_exit: (code: number) => {
      throw new WebAssembly.RuntimeError(`libjxl exited with ${code}`);
    },
  };
  const exports = new WebAssembly.Instance(module, { wasi_snapshot_preview1: wasi }).exports as unknown as JxlExports;
  adviseHugePages(exports.memory.buffer, HEAP_RESERVE_BYTES);
  trackHeap(module, exports.memory);
  exports._initialize();
  return exports;
}

/**
 * A transcoder over the compiled module (the host worker's, or `jxlModule()`). It instantiates on first use and
 * again after a trap; calls are synchronous.
 */
export function loadJxlTranscoder(module: WebAssembly.Module): JxlTranscoder {
  let instance: JxlExports | null = null;
  /**
   * Forgets the instance. wasm.ts counts a codec's memory by module until another replaces it (it has no way to
   * forget one): an empty memory takes its place there, so the dropped one can be collected and stops counting.
   */
  const drop = () => {
    instance = null;
    trackHeap(module, new WebAssembly.Memory({ initial: 0 }));
  };

  /** Copies `input` into the instance, runs `call` with its address and an 8-byte out area, returns the output. */
  function run(
    input: Uint8Array,
    call: (jx: JxlExports, pointer: number, out: number) => number,
  ): Uint8Array<ArrayBuffer> {
    const jx = instance ??= instantiate(module);
    let pointer = 0, out = 0;
    try {
      out = jx.jxl_malloc(8);
      pointer = jx.jxl_malloc(Math.max(1, input.length));
      if (out === 0 || pointer === 0) throw new JxlTranscodeError("out_of_memory");
      new Uint8Array(jx.memory.buffer, pointer, input.length).set(input);
      const status = call(jx, pointer, out);
      if (status !== JXL_STATUS.ok) throw new JxlTranscodeError(failureOf(status));
      const view = new DataView(jx.memory.buffer);
      const output = view.getUint32(out, true), length = view.getUint32(out + 4, true);
      const bytes = new Uint8Array(jx.memory.buffer, output, length).slice();
      jx.jxl_free(output);
      return bytes;
    } catch (error) {
      if (error instanceof JxlTranscodeError) throw error;
      // A trap (or a host error) leaves the instance inconsistent: the next call starts a fresh one. Its memory
      // stays readable, so it can still say whether an allocation failed.
      drop();
      const outOfMemory = error instanceof RangeError || readAllocFailed(jx);
      const detail = error instanceof Error ? error.message : String(error);
      throw new JxlTranscodeError(outOfMemory ? "out_of_memory" : "internal", detail);
    } finally {
      if (instance === jx) {
        if (pointer) jx.jxl_free(pointer);
        if (out) jx.jxl_free(out);
      }
    }
  }

  return {
    jpegToJxl(jpeg, effort = DEFAULT_JXL_EFFORT) {
      if (!Number.isInteger(effort) || effort < 1 || effort > 10) throw new JxlTranscodeError("bad_argument");
      return run(jpeg, (jx, pointer, out) => jx.jxl_from_jpeg(pointer, jpeg.length, effort, out, out + 4));
    },
    jxlToJpeg(jxl) {
      return run(jxl, (jx, pointer, out) => jx.jpeg_from_jxl(pointer, jxl.length, out, out + 4));
    },
    memoryBytes: () => instance?.memory.buffer.byteLength ?? 0,
    reset: () => {
      if (instance) drop();
    },
  };
}

/** The compiled module: as posted by the host worker, else compiled here on first use (tests, benches). */
export function jxlModule(): WebAssembly.Module {
  return compiledModuleSync(JXL_WASM);
}

function failureOf(status: number): JxlFailure {
  const entry = Object.entries(JXL_STATUS).find(([, value]) => value === status);
  return entry && entry[0] !== "ok" ? entry[0] as JxlFailure : "internal";
}

function readAllocFailed(jx: JxlExports): boolean {
  try {
    return jx.jxl_alloc_failed() === 1;
  } catch {
    return false;
  }
}

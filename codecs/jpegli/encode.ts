/**
 * jpegli encode through our entry point (entry.cc). The module is ours (a WASI reactor whose only imports
 * are four WASI calls, stubbed here): instantiated once per thread and thrown away after any fault, since a
 * trap (jpegli's error handler traps on purpose), an abort or running out of memory leaves it inconsistent.
 */
import { CodecError } from "../errors.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { adviseHugePages } from "../libc.ts";
import { CodecInstance } from "../codec-instance.ts";
import { compiledModuleSync, JPEGLI_WASM, trackHeap } from "../wasm.ts";
import type { JpegliOptions } from "./meta.ts";

interface JpegliExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  jl_malloc(size: number): number;
  jl_free(pointer: number): void;
  jl_error(): number;
  jl_output(): number;
  jl_encode(
    pixels: number,
    width: number,
    height: number,
    grey: number,
    distance: number,
    chroma: number,
    progressive: number,
    adaptive: number,
    optimize: number,
  ): number;
  jl_release(): void;
}

const CHROMA_CODE = { "4:4:4": 1, "4:2:2": 2, "4:2:0": 3 } as const;
/** WASM memory can grow to 4 GiB; a larger image (or a bug) fails the job instead. */
const HEAP_RESERVE_BYTES = 2 ** 31;

/**
 * The heap grows to about 5 bytes per pixel (105 MiB for 20 MP): given back after a call that left it over
 * 96 MiB (photos past about 19 MP; codec-instance.ts) so that a search does not hold it through its other
 * steps, kept through the job below that (as MozJPEG's, encode.ts: regrowing it costs each probe).
 */
const JPEGLI_KEEP_HEAP_BYTES = 96 * 2 ** 20;

function instantiate(module: WebAssembly.Module): JpegliExports {
  let memory: WebAssembly.Memory | null = null;
  // The reactor writes nothing (entry.cc silences messages) and never exits on its own; these only satisfy imports.
  const wasi = {
    fd_write: (_fd: number, iovs: number, count: number, written: number) => {
      const view = new DataView(memory!.buffer);
      let bytes = 0;
      for (let i = 0; i < count; i++) bytes += view.getUint32(iovs + i * 8 + 4, true);
      view.setUint32(written, bytes, true);
      return 0;
    },
    fd_close: () => 0,
    fd_seek: () => 70, // ESPIPE
    proc_exit: (code: number) => {
      throw new WebAssembly.RuntimeError(`jpegli exited with ${code}`);
    },
  };
  const exports = new WebAssembly.Instance(module, { wasi_snapshot_preview1: wasi })
    .exports as unknown as JpegliExports;
  memory = exports.memory;
  adviseHugePages(memory.buffer, HEAP_RESERVE_BYTES);
  trackHeap(module, memory);
  exports._initialize();
  return exports;
}

const encoder = new CodecInstance(
  () => Promise.resolve(compiledModuleSync(JPEGLI_WASM)),
  (module) => Promise.resolve(instantiate(module)),
  JPEGLI_KEEP_HEAP_BYTES,
);

/** See `Codec.releaseEncoderHeap`. */
export const releaseJpegliEncoder = (keepBytes: number): boolean => encoder.release(keepBytes);

export function encodeJpegliPixels(image: RgbaImage, options: JpegliOptions): Promise<Uint8Array> {
  // A throw drops the instance (inconsistent after a trap): its message is read first.
  return encoder.run((jl) => {
    try {
      return encodeWith(jl, image, options);
    } catch (error) {
      if (error instanceof CodecError) throw error;
      const detail = error instanceof WebAssembly.RuntimeError ? readError(jl) || error.message : String(error);
      throw new CodecError("corrupt_image", `Cannot encode the image with jpegli: ${detail}`);
    }
  });
}

function encodeWith(jl: JpegliExports, image: RgbaImage, options: JpegliOptions): Uint8Array {
  const channels = options.grayscale ? 1 : 4;
  const input = jl.jl_malloc(image.width * image.height * channels);
  if (input === 0) throw new CodecError("corrupt_image", "Cannot encode the image: not enough memory for jpegli");
  const heap = new Uint8Array(jl.memory.buffer, input, image.width * image.height * channels);
  if (options.grayscale) {
    // Decoded grey images arrive as RGBA with R = G = B.
    const rgba = image.data;
    for (let i = 0, n = heap.length; i < n; i++) heap[i] = rgba[i * 4]!;
  } else {
    heap.set(image.data);
  }
  const size = jl.jl_encode(
    input,
    image.width,
    image.height,
    options.grayscale ? 1 : 0,
    Math.min(25, Math.max(0.01, options.distance)),
    CHROMA_CODE[options.chroma],
    options.progressiveLevel,
    options.adaptiveQuantization ? 1 : 0,
    options.optimizeCoding ? 1 : 0,
  );
  const out = new Uint8Array(jl.memory.buffer, jl.jl_output(), size).slice();
  jl.jl_release();
  jl.jl_free(input);
  return out;
}

/**
 * The message entry.cc's error handler left before trapping (memory stays readable after a trap), without
 * jpegli's source location and trailing full stop: "Empty input image".
 */
function readError(jl: JpegliExports): string {
  try {
    const bytes = new Uint8Array(jl.memory.buffer, jl.jl_error(), 200);
    const end = bytes.indexOf(0);
    const message = new TextDecoder().decode(bytes.subarray(0, end < 0 ? bytes.length : end));
    return message.replace(/^[\w./-]+:\d+: /, "").replace(/\.$/, "");
  } catch {
    return "";
  }
}

/**
 * libavif + libaom encode, the single-thread build, instantiated once per worker and reused while its heap
 * is small (codec-instance.ts).
 *
 * We call the single-thread glue (codec/enc/avif_enc.js) ourselves instead of @jsquash/avif/encode.js: its
 * `init` picks the threaded build wherever `process.release.name` is not "node" and the runtime has
 * threads, and a compiled single-thread module handed to the threaded glue would not instantiate. Under Deno
 * it would pick this build anyway; in the browser (the live preview's worker) the page is not cross-origin
 * isolated, and our workers are one thread each by design.
 */
import avifEncoder from "@jsquash/avif/codec/enc/avif_enc.js";
import { CodecInstance } from "../codec-instance.ts";
import { CodecError } from "../errors.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { CODEC_WASM, codecModule, compilePackageWasm, isEmscriptenExit } from "../wasm.ts";
import { type AvifOptions, whitelist } from "./meta.ts";

interface AvifEncodeModule {
  encode(
    data: Uint8ClampedArray,
    width: number,
    height: number,
    options: ReturnType<typeof whitelist>,
  ): Uint8Array | null;
}
type Factory = (overrides: Record<string, unknown>) => Promise<AvifEncodeModule>;

/**
 * The encoder's heap grows to 30-36 bytes per pixel, the decoder's to 18.6: each is kept up to 64 MiB (a
 * search's mosaic, a web set's smaller widths) and dropped after anything larger, where re-making it costs a
 * few milliseconds against seconds of encoding. At 160 MiB a 6.3 MP job kept the decoder's heap through the
 * next full-size encode and peaked 37% higher (codecs/README.md, "AVIF", Memory).
 */
export const AVIF_KEEP_HEAP_BYTES = 64 * 2 ** 20;

const encoder = new CodecInstance(
  () => compilePackageWasm(...CODEC_WASM["avif-encode"]),
  (module) => (avifEncoder as unknown as Factory)({ noInitialRun: true, ...codecModule(module) }),
  AVIF_KEEP_HEAP_BYTES,
);

/** See `Codec.releaseEncoderHeap`. */
export const releaseAvifEncoder = (keepBytes: number): boolean => encoder.release(keepBytes);

export async function encodeAvifPixels(image: RgbaImage, options: AvifOptions): Promise<Uint8Array> {
  let out: Uint8Array | null;
  try {
    // The binding copies the pixels into its heap (a std::string) and returns a copy of its output.
    out = await encoder.run((api) => api.encode(image.data, image.width, image.height, whitelist(options)));
  } catch (error) {
    // A trap (out of memory, abort): the next call instantiates a fresh encoder.
    const detail = isEmscriptenExit(error) ? "the encoder stopped" : String(error);
    throw new CodecError("corrupt_image", `Cannot encode the image as AVIF: ${detail}`);
  }
  if (!out) throw new CodecError("corrupt_image", "Cannot encode the image as AVIF: libavif reported an error");
  return out;
}

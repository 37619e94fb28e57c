/**
 * libavif + libaom encode, the single-thread build, instantiated once per worker and memoised.
 *
 * We call the single-thread glue (codec/enc/avif_enc.js) ourselves instead of @jsquash/avif/encode.js: its
 * `init` picks the threaded build wherever `process.release.name` is not "node" and the runtime has
 * threads, and a compiled single-thread module handed to the threaded glue would not instantiate. Under Deno
 * it would pick this build anyway; in the browser (the live preview's worker) the page is not cross-origin
 * isolated, and our workers are one thread each by design.
 */
import avifEncoder from "@jsquash/avif/codec/enc/avif_enc.js";
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

let ready: Promise<AvifEncodeModule> | null = null;

function ensureReady(): Promise<AvifEncodeModule> {
  ready ??= compilePackageWasm(...CODEC_WASM["avif-encode"]).then((module) =>
    (avifEncoder as unknown as Factory)({ noInitialRun: true, ...codecModule(module) })
  );
  return ready;
}

export async function encodeAvifPixels(image: RgbaImage, options: AvifOptions): Promise<Uint8Array> {
  const encoder = await ensureReady();
  try {
    // The binding copies the pixels into its heap (a std::string) and returns a copy of its output.
    const out = encoder.encode(image.data, image.width, image.height, whitelist(options));
    if (!out) throw new Error("libavif reported an error");
    return out;
  } catch (error) {
    // A trap (out of memory, abort) leaves the instance unusable: the next call instantiates a fresh one.
    ready = null;
    const detail = isEmscriptenExit(error) ? "the encoder stopped" : String(error);
    throw new CodecError("corrupt_image", `Cannot encode the image as AVIF: ${detail}`);
  }
}

/**
 * libwebp encode (SIMD build), instantiated once per worker and reused while its heap is small
 * (codec-instance.ts). The glue is called directly (as @jsquash/webp/encode.js does, SIMD picked: Deno has it)
 * so that the instance can be dropped: kept, a 13 MP photo's 137 MB heap sat beside the next batch's jobs
 * (ADR 053).
 */
import webpEncoder from "@jsquash/webp/codec/enc/webp_enc_simd.js";
import { defaultOptions } from "@jsquash/webp/meta.js";
import { CodecInstance } from "../codec-instance.ts";
import { CodecError } from "../errors.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { CODEC_WASM, codecModule, compilePackageWasm, isEmscriptenExit } from "../wasm.ts";
import { type WebpOptions, whitelist } from "./meta.ts";

interface WebpEncodeModule {
  /** `options`: libwebp's whole config (the binding wants every field). A copy out of its heap, or null. */
  encode(data: Uint8ClampedArray, width: number, height: number, options: Record<string, unknown>): Uint8Array | null;
}
type Factory = (overrides: Record<string, unknown>) => Promise<WebpEncodeModule>;

/**
 * The heap grows to about 11 bytes per pixel (225 MB at 20.4 MP). Kept up to 64 MiB (a search's mosaic, a set's
 * smaller widths), as AVIF's, and dropped after anything larger: kept up to 192 MiB (as MozJPEG's), the public
 * corpus's WebP batch took the same 23-24 s and peaked 40-50 MB higher (ADR 053).
 */
export const WEBP_KEEP_HEAP_BYTES = 64 * 2 ** 20;

const encoder = new CodecInstance(
  () => compilePackageWasm(...CODEC_WASM["webp-encode"]),
  (module) => (webpEncoder as unknown as Factory)({ noInitialRun: true, ...codecModule(module) }),
  WEBP_KEEP_HEAP_BYTES,
);

/** See `Codec.releaseEncoderHeap`. */
export const releaseWebpEncoder = (keepBytes: number): boolean => encoder.release(keepBytes);

export async function encodeWebpPixels(image: RgbaImage, options: WebpOptions): Promise<Uint8Array> {
  let out: Uint8Array | null;
  try {
    const config = { ...defaultOptions, ...whitelist(options) };
    out = await encoder.run((api) => api.encode(image.data, image.width, image.height, config));
  } catch (error) {
    const detail = isEmscriptenExit(error) ? "the encoder stopped" : String(error);
    throw new CodecError("corrupt_image", `Cannot encode the image: ${detail}`);
  }
  if (!out) throw new CodecError("corrupt_image", "Cannot encode the image: libwebp reported an error");
  return out;
}

/**
 * libwebp decode, used only to measure WebP output against the original. The glue is called directly (as
 * @jsquash/webp/decode.js does) so that the instance can be dropped between jobs (ADR 053).
 */
import webpDecoder from "@jsquash/webp/codec/dec/webp_dec.js";
import { CodecInstance } from "../codec-instance.ts";
import { CodecError } from "../errors.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { WEBP_KEEP_HEAP_BYTES } from "./encode.ts";
import { CODEC_WASM, codecModule, compilePackageWasm } from "../wasm.ts";

interface WebpDecodeModule {
  /** A copy of the pixels out of its heap, or null. */
  decode(data: Uint8Array): ImageData | null;
}
type Factory = (overrides: Record<string, unknown>) => Promise<WebpDecodeModule>;

/** Kept up to 64 MiB (a search's mosaic readings), as the encoder. */
const decoder = new CodecInstance(
  () => compilePackageWasm(...CODEC_WASM["webp-decode"]),
  (module) => (webpDecoder as unknown as Factory)({ noInitialRun: true, ...codecModule(module) }),
  WEBP_KEEP_HEAP_BYTES,
);

export async function decodeWebpPixels(bytes: Uint8Array): Promise<RgbaImage> {
  let image: ImageData | null;
  try {
    image = await decoder.run((api) => api.decode(bytes));
  } catch (error) {
    throw new CodecError("corrupt_image", `Cannot decode the WebP output: ${String(error)}`);
  }
  if (!image) throw new CodecError("corrupt_image", "Cannot decode the WebP output: libwebp reported an error");
  return { data: image.data, width: image.width, height: image.height };
}

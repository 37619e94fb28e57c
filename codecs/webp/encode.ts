/** libwebp encode (SIMD build); the WASM instance is created once per worker and memoised. */
import encodeWebp, { init } from "@jsquash/webp/encode.js";
import { CodecError } from "../errors.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { toImageData } from "../jpeg/encode.ts";
import { codecModule, compilePackageWasm, isEmscriptenExit, type JsquashInit } from "../wasm.ts";
import { type WebpOptions, whitelist } from "./meta.ts";

let ready: Promise<void> | null = null;

function ensureReady(): Promise<void> {
  // jsquash picks the SIMD glue when the runtime supports SIMD, which Deno does.
  ready ??= compilePackageWasm("@jsquash/webp/encode.js", "./codec/enc/webp_enc_simd.wasm").then(async (module) => {
    await (init as unknown as JsquashInit)(module, codecModule(module));
  });
  return ready;
}

export async function encodeWebpPixels(image: RgbaImage, options: WebpOptions): Promise<Uint8Array> {
  await ensureReady();
  try {
    return new Uint8Array(await encodeWebp(toImageData(image), whitelist(options)));
  } catch (error) {
    ready = null;
    const detail = isEmscriptenExit(error) ? "the encoder stopped" : String(error);
    throw new CodecError("corrupt_image", `Cannot encode the image: ${detail}`);
  }
}

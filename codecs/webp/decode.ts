/** libwebp decode, used only to measure WebP output against the original. */
import decodeWebp, { init } from "@jsquash/webp/decode.js";
import { CodecError } from "../errors.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { codecModule, compilePackageWasm, type JsquashInit } from "../wasm.ts";

let ready: Promise<void> | null = null;

export async function decodeWebpPixels(bytes: Uint8Array): Promise<RgbaImage> {
  ready ??= compilePackageWasm("@jsquash/webp/decode.js", "./codec/dec/webp_dec.wasm").then(async (module) => {
    await (init as unknown as JsquashInit)(module, codecModule(module));
  });
  await ready;
  try {
    const image = await decodeWebp(bytes.slice().buffer);
    return { data: image.data, width: image.width, height: image.height };
  } catch (error) {
    ready = null;
    throw new CodecError("corrupt_image", `Cannot decode the WebP output: ${String(error)}`);
  }
}

/** MozJPEG encode; the WASM instance is created once per worker and memoised. */
import encodeJpeg, { init } from "@jsquash/jpeg/encode.js";
import { CodecError } from "../errors.ts";
import { codecModule, compilePackageWasm, isEmscriptenExit, type JsquashInit } from "../wasm.ts";
import type { RgbaImage } from "./decode.ts";
import { type MozJpegOptions, whitelist } from "./meta.ts";

let ready: Promise<void> | null = null;

function ensureReady(): Promise<void> {
  ready ??= compilePackageWasm("@jsquash/jpeg/encode.js", "./codec/enc/mozjpeg_enc.wasm").then((module) =>
    (init as unknown as JsquashInit)(module, codecModule(module)).then(() => {})
  );
  return ready;
}

export async function encodeJpegPixels(image: RgbaImage, options: MozJpegOptions): Promise<Uint8Array> {
  await ensureReady();
  try {
    const out = await encodeJpeg(toImageData(image), whitelist(options));
    // On a libjpeg error the binding returns the message string instead of bytes.
    if (!(out instanceof ArrayBuffer)) throw new Error(String(out));
    return new Uint8Array(out);
  } catch (error) {
    ready = null;
    const detail = isEmscriptenExit(error) ? "the encoder stopped" : String(error);
    throw new CodecError("corrupt_image", `Cannot encode the image: ${detail}`);
  }
}

export function toImageData(image: RgbaImage): ImageData {
  return { data: image.data, width: image.width, height: image.height, colorSpace: "srgb" } as ImageData;
}

/**
 * MozJPEG decode. libjpeg reports damaged data as warnings on stderr and
 * still returns (grey-filled) pixels, so stderr is captured and any corrupt
 * data warning fails the decode. A fatal error arrives as an emscripten
 * ExitStatus; the instance may then be inconsistent, so it is dropped and
 * re-instantiated from the compiled module on the next call.
 */
import decodeJpeg, { init } from "@jsquash/jpeg/decode.js";
import { CodecError } from "../errors.ts";
import { codecModule, compilePackageWasm, isEmscriptenExit, type JsquashInit } from "../wasm.ts";

const warnings: string[] = [];
let ready: Promise<void> | null = null;

function ensureReady(): Promise<void> {
  ready ??= compilePackageWasm("@jsquash/jpeg/decode.js", "./codec/dec/mozjpeg_dec.wasm").then((module) =>
    (init as unknown as JsquashInit)(module, codecModule(module, (line) => warnings.push(line))).then(() => {})
  );
  return ready;
}

export interface RgbaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export async function decodeJpegPixels(bytes: Uint8Array): Promise<RgbaImage> {
  await ensureReady();
  warnings.length = 0;
  let image: ImageData;
  try {
    // The embind glue accepts a Uint8Array and copies it into WASM memory itself.
    image = await decodeJpeg(bytes as unknown as ArrayBuffer);
  } catch (error) {
    ready = null;
    const detail = warnings.at(-1) ?? (isEmscriptenExit(error) ? "the decoder stopped" : String(error));
    throw new CodecError("corrupt_image", `Cannot decode the image: ${describe(detail)}`);
  }
  const damage = warnings.find((w) => /corrupt|premature|bogus|invalid/i.test(w));
  if (damage) throw new CodecError("corrupt_image", `Cannot decode the image: ${describe(damage)}`);
  return { data: image.data, width: image.width, height: image.height };
}

function describe(libjpegMessage: string): string {
  if (/premature end/i.test(libjpegMessage)) return "the file ends before its image data";
  const text = libjpegMessage.replace(/\.+$/, "");
  return text.charAt(0).toLowerCase() + text.slice(1);
}

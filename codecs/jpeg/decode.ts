/**
 * MozJPEG decode. libjpeg reports damaged data as warnings on stderr and
 * still returns (grey-filled) pixels, so stderr is captured and any corrupt
 * data warning fails the decode. A fatal error arrives as an emscripten
 * ExitStatus; the instance may then be inconsistent, so it is dropped and
 * re-instantiated from the compiled module on the next call.
 */
import mozjpegDecoder from "@jsquash/jpeg/codec/dec/mozjpeg_dec.js";
import { CodecInstance } from "../codec-instance.ts";
import { lendPixels } from "../image/release.ts";
import { bulkCopyGlue } from "../embind-glue.ts";
import { CodecError } from "../errors.ts";
import { CODEC_WASM, codecModule, compilePackageWasm, isEmscriptenExit } from "../wasm.ts";

interface MozJpegDecodeModule {
  /** The glue copies the pixels out of its heap. */
  decode(data: Uint8Array, preserveOrientation: boolean): ImageData | null;
}
type Factory = (overrides: Record<string, unknown>) => Promise<MozJpegDecodeModule>;
const GLUE = "@jsquash/jpeg/codec/dec/mozjpeg_dec.js";

const warnings: string[] = [];

/**
 * The glue is called directly (as @jsquash/jpeg/decode.js does, with its default options) so that the
 * instance can be dropped. Its heap (4.2 bytes per pixel, 87 MiB for 20 MP) decodes every candidate a search
 * measures; it is given back before each full-size encode (pipeline/search-heaps.ts) and between jobs
 * (codec-instance.ts `releaseCodecHeaps`).
 */
const decoder = new CodecInstance(
  () => compilePackageWasm(...CODEC_WASM["mozjpeg-decode"]),
  async (module) =>
    (await bulkCopyGlue(GLUE, mozjpegDecoder as unknown as Factory))({
      noInitialRun: true,
      ...codecModule(module, (line) => warnings.push(line)),
    }),
  Infinity,
);

/** Gives the decoder's heap back now: for a job none of whose outputs it reads (an AVIF or WebP search). */
export const releaseJpegDecoder = (): Promise<void> => decoder.releaseNow();

/** Gives the decoder's heap back when it holds more than `keepBytes`; true when dropped (the caller collects). */
export const releaseJpegDecoderHeap = (keepBytes: number): boolean => decoder.release(keepBytes);

/**
 * The glue hands its pixels to JS through `new Uint8ClampedArray(heapView)`, a fresh copy of 4 bytes a pixel
 * (48 MB for 12 MP) that the kernel must map and zero, and that is unmapped again when released. During a call
 * that constructor is this one, which returns the view itself: the glue looks the global up on its first call,
 * so the swap is made around every call. The pixels then stay in the decoder's heap, valid until its next call.
 */
const NativeClamped = globalThis.Uint8ClampedArray;
function HeapView(view: Uint8Array): Uint8ClampedArray {
  return new NativeClamped(view.buffer, view.byteOffset, view.length);
}

export interface RgbaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * Decodes a JPEG to RGBA. `borrow`: the pixels are left in the decoder's heap instead of copied out, for a
 * caller that is done with them before this thread decodes another JPEG (its encoders and the metric copy
 * pixels into their own heaps); `releasePixels` leaves them there.
 */
export async function decodeJpegPixels(bytes: Uint8Array, borrow = false): Promise<RgbaImage> {
  warnings.length = 0;
  let image: ImageData | null;
  try {
    // The embind glue accepts a Uint8Array and copies it into WASM memory itself (in one copy: embind-glue.ts).
    image = await decoder.run((api) => {
      (globalThis as { Uint8ClampedArray: unknown }).Uint8ClampedArray = HeapView;
      try {
        return api.decode(bytes, false);
      } finally {
        globalThis.Uint8ClampedArray = NativeClamped;
      }
    });
    if (!image) throw new Error("Decoding error");
  } catch (error) {
    const detail = warnings.at(-1) ?? (isEmscriptenExit(error) ? "the decoder stopped" : String(error));
    throw new CodecError("corrupt_image", `Cannot decode the image: ${describe(detail)}`);
  }
  const damage = warnings.find((w) => /corrupt|premature|bogus|invalid/i.test(w));
  if (damage) throw new CodecError("corrupt_image", `Cannot decode the image: ${describe(damage)}`);
  if (!borrow) return { data: image.data.slice(), width: image.width, height: image.height };
  lendPixels(image.data);
  return { data: image.data, width: image.width, height: image.height };
}

function describe(libjpegMessage: string): string {
  if (/premature end/i.test(libjpegMessage)) return "the file ends before its image data";
  const text = libjpegMessage.replace(/\.+$/, "");
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** MozJPEG encode, through the package's glue, one instance per worker reused while its heap is small. */
import mozjpegEncoder from "@jsquash/jpeg/codec/enc/mozjpeg_enc.js";
import { CodecInstance } from "../codec-instance.ts";
import { bulkCopyGlue } from "../embind-glue.ts";
import { CodecError } from "../errors.ts";
import { CODEC_WASM, codecModule, compilePackageWasm, isEmscriptenExit } from "../wasm.ts";
import type { RgbaImage } from "./decode.ts";
import { type MozJpegOptions, whitelist } from "./meta.ts";

interface MozJpegEncodeModule {
  /** The output (a copy out of the heap), or libjpeg's message on an error. */
  encode(data: Uint8ClampedArray, width: number, height: number, options: MozJpegOptions): Uint8Array | string;
}
type Factory = (overrides: Record<string, unknown>) => Promise<MozJpegEncodeModule>;
const GLUE = "@jsquash/jpeg/codec/enc/mozjpeg_enc.js";

/**
 * The heap grows to about 16 bytes per pixel (the binding's two copies of the RGBA, the coefficients that
 * trellis quantisation and optimised coding keep): 324 MiB for 20 MP. Given back after a call that left it
 * over 192 MiB (photos past about 12 MP; codec-instance.ts), so that a large photo's auto search does not
 * hold it through the measure; below that it is kept from one probe to the next (every full-size probe
 * regrowing it cost auto 5-8% of its time on the validation set) and given back before another encoder's
 * full-size turn (pipeline/search-heaps.ts) and between jobs.
 */
const encoder = new CodecInstance(
  () => compilePackageWasm(...CODEC_WASM["mozjpeg-encode"]),
  // The glue is called directly (as @jsquash/jpeg/encode.js does) so that the instance can be dropped.
  async (module) =>
    (await bulkCopyGlue(GLUE, mozjpegEncoder as unknown as Factory))({ noInitialRun: true, ...codecModule(module) }),
  192 * 2 ** 20,
);

/** See `Codec.releaseEncoderHeap`. */
export const releaseMozjpegEncoder = (keepBytes: number): boolean => encoder.release(keepBytes);

export async function encodeJpegPixels(image: RgbaImage, options: MozJpegOptions): Promise<Uint8Array> {
  let out: Uint8Array | string;
  try {
    out = await encoder.run((api) => api.encode(image.data, image.width, image.height, whitelist(options)));
  } catch (error) {
    const detail = isEmscriptenExit(error) ? "the encoder stopped" : String(error);
    throw new CodecError("corrupt_image", `Cannot encode the image: ${detail}`);
  }
  if (typeof out === "string") throw new CodecError("corrupt_image", `Cannot encode the image: Error: ${out}`);
  return out;
}

export function toImageData(image: RgbaImage): ImageData {
  return { data: image.data, width: image.width, height: image.height, colorSpace: "srgb" } as ImageData;
}

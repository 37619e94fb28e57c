/** jpegli as a registry codec (codecs/registry.ts). */
import { type Codec, writes } from "../codec.ts";
import { spliceSegments } from "../container/metadata.ts";
import { decodeJpegPixels } from "../jpeg/decode.ts";
import { encodeJpegliPixels, releaseJpegliEncoder } from "./encode.ts";
import { jpegliOptions } from "./options.ts";
import { predictQuality } from "./score-curve.ts";

export const jpegli: Codec = {
  id: "jpegli",
  ...writes("jpeg"),
  encodeMsPerMp: 10, // 9-11 on Aqua, aitzgorri and Kleiber
  // jpegli writes 4:2:2 itself: no emulation.
  prepare: (pixels) => pixels,
  encode: (pixels, settings, quality, context) =>
    encodeJpegliPixels(pixels, jpegliOptions(settings, quality, context.grayscale)),
  releaseEncoderHeap: releaseJpegliEncoder,
  carryMetadata: (encoded, plan) => spliceSegments(encoded, plan.segments),
  decode: decodeJpegPixels,
  predictQuality,
};

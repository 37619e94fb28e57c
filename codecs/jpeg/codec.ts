/** MozJPEG as a registry codec (codecs/registry.ts): the settings → options mapping of options.ts. */
import { type Codec, writes } from "../codec.ts";
import { spliceSegments } from "../container/metadata.ts";
import { averageChromaHorizontally } from "../image/chroma.ts";
import { decodeJpegPixels } from "./decode.ts";
import { encodeJpegPixels, releaseMozjpegEncoder } from "./encode.ts";
import { mozJpegOptions } from "./options.ts";
import { predictQuality, SCORE_SEARCH_TABLE } from "./score-curve.ts";

export const mozjpeg: Codec = {
  id: "mozjpeg",
  ...writes("jpeg"),
  encodeMsPerMp: 65, // balanced mode: 51-80 on Aqua, aitzgorri and Kleiber
  // 4:2:2 is not expressible in this build: emulated on a 4:4:4 frame (image/chroma.ts).
  prepare: (pixels, settings, grayscale) =>
    !grayscale && settings.chromaSubsampling === "4:2:2" ? averageChromaHorizontally(pixels) : pixels,
  encode: (pixels, settings, quality, context) =>
    encodeJpegPixels(
      pixels,
      mozJpegOptions(settings, quality, context.grayscale, context.scoreGoal ? SCORE_SEARCH_TABLE : undefined),
    ),
  releaseEncoderHeap: releaseMozjpegEncoder,
  carryMetadata: (encoded, plan) => spliceSegments(encoded, plan.segments),
  decode: decodeJpegPixels,
  predictQuality,
};

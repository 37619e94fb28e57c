/** libwebp (lossy) as a registry codec (codecs/registry.ts). */
import { type Codec, writes } from "../codec.ts";
import { decodeWebpPixels } from "./decode.ts";
import { encodeWebpPixels, releaseWebpEncoder } from "./encode.ts";
import { webpOptions } from "./options.ts";

export const webp: Codec = {
  id: "webp",
  ...writes("webp"),
  encodeMsPerMp: 95, // method 4: 78-108 on Aqua, aitzgorri and Kleiber
  // WebP lossy is always 4:2:0, and the encoder writes no metadata chunks.
  prepare: (pixels) => pixels,
  encode: (pixels, settings, quality) => encodeWebpPixels(pixels, webpOptions(settings, quality)),
  releaseEncoderHeap: releaseWebpEncoder,
  carryMetadata: (encoded) => encoded,
  decode: decodeWebpPixels,
  // libwebp's quality scale scores about like MozJPEG's near 80 (a first probe; the search corrects it).
  predictQuality: (goal) => 80 + (goal + 1 - 81) / 0.8,
};

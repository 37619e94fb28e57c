/** libavif + libaom (lossy AVIF) as a registry codec (codecs/registry.ts). */
import { type Codec, writes } from "../codec.ts";
import { addAvifMetadata } from "../container/avif-metadata.ts";
import { CodecError } from "../errors.ts";
import { decodeAvifPixels } from "./decode.ts";
import { encodeAvifPixels, releaseAvifEncoder } from "./encode.ts";
import { avifQuantizer } from "./meta.ts";
import { avifOptions } from "./options.ts";
import { predictQuality } from "./score-curve.ts";

/**
 * libavif's decoders refuse an image wider or taller than this by default (`imageDimensionLimit`: ours, for
 * the score, and the browsers' that use libavif), though libaom encodes up to 65,536: such a file would not
 * show, so it is never made.
 */
export const AVIF_MAX_SIDE = 32_768;

export const avif: Codec = {
  id: "avif",
  ...writes("avif"),
  encodeMsPerMp: 620, // speed 7, 4:2:0: 350-870 on 9 corpus photos (codecs/README.md, "AVIF")
  // libavif converts RGB to YUV itself, at the subsampling options.ts asks for.
  prepare: (pixels) => pixels,
  encode: (pixels, settings, quality, context) => {
    if (Math.max(pixels.width, pixels.height) > AVIF_MAX_SIDE) {
      const message = `AVIF holds at most ${AVIF_MAX_SIDE.toLocaleString("en")} px a side; this image is ` +
        `${pixels.width}×${pixels.height}: choose JPEG, or resize it`;
      return Promise.reject(new CodecError("unsupported_format", message));
    }
    const size = context.imagePixels ?? pixels.width * pixels.height;
    return encodeAvifPixels(pixels, avifOptions(settings, quality, context.grayscale, size, context.inSet));
  },
  releaseEncoderHeap: releaseAvifEncoder,
  carryMetadata: addAvifMetadata,
  decode: decodeAvifPixels,
  predictQuality,
  encoderSetting: avifQuantizer,
};

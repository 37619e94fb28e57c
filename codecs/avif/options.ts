/** Maps the product's settings to libavif options; JPEG-only settings have no AVIF meaning. */
import type { ChromaSubsampling, CompressSettings, Mode } from "../../contract/settings.ts";
import { type AvifOptions, type AvifSubsample, whitelist } from "./meta.ts";

/**
 * libaom's speed preset per mode, measured on the corpus (codecs/README.md, "AVIF"): SPEED_BY_MODE.balanced is
 * the server's speed.
 */
export const SPEED_BY_MODE: Readonly<Record<Mode, number>> = { speed: 8, balanced: 7, quality: 6 };

/**
 * 4:2:2 is not in either AVIF profile (Baseline is AV1 Main: 4:2:0 and grey; Advanced is AV1 High: 4:4:4), so
 * a viewer may refuse it: it is written as 4:2:0, the chroma JPEG's 4:2:2 setting is closest to in bytes.
 */
export function avifSubsample(chroma: ChromaSubsampling, grayscale: boolean): AvifSubsample {
  if (grayscale) return 0;
  return chroma === "4:4:4" ? 3 : 1;
}

export function avifOptions(settings: CompressSettings, quality: number, grayscale: boolean): AvifOptions {
  return whitelist({
    quality,
    speed: SPEED_BY_MODE[settings.mode],
    subsample: avifSubsample(settings.chromaSubsampling, grayscale),
  });
}

/** Maps the product's settings to libavif options; JPEG-only settings have no AVIF meaning. */
import type { ChromaSubsampling, CompressSettings, Mode } from "../../contract/settings.ts";
import { type AvifOptions, type AvifSubsample, whitelist } from "./meta.ts";

/**
 * libaom's speed preset per mode, measured on the corpus (codecs/README.md, "AVIF"): SPEED_BY_MODE.balanced is
 * the server's speed for large images.
 */
export const SPEED_BY_MODE: Readonly<Record<Mode, number>> = { speed: 8, balanced: 7, quality: 6 };

/**
 * Up to this many pixels (a 2,560 × 1,707 web image) balanced takes speed 6: 11% fewer bytes at SSIMULACRA 2
 * ≥ 80 than speed 7 at 1,280 px for 1.4× the time, which at this size stays a few seconds. Larger photos keep
 * speed 7, where speed 6 saved 4.5% and put a 12 MP auto near the job timeout.
 */
export const SLOWER_UP_TO_PIXELS = 4_500_000;

/**
 * The speed preset for `mode` on an image of `pixels`. A web set's files keep the mode's own speed at every
 * width: speed 6 made its AVIF files 1.4-2.3% smaller for a third more of the set's time (four 9-13 MP set
 * photos in each corpus: 22-26% of the set's time saved at speed 7; codecs/README.md, "Web sets").
 */
export const avifSpeed = (mode: Mode, pixels: number, inSet = false): number =>
  mode === "balanced" && !inSet && pixels <= SLOWER_UP_TO_PIXELS ? SPEED_BY_MODE.quality : SPEED_BY_MODE[mode];

/**
 * 4:2:2 is not in either AVIF profile (Baseline is AV1 Main: 4:2:0 and grey; Advanced is AV1 High: 4:4:4), so
 * a viewer may refuse it: it is written as 4:2:0, the chroma JPEG's 4:2:2 setting is closest to in bytes.
 */
export function avifSubsample(chroma: ChromaSubsampling, grayscale: boolean): AvifSubsample {
  if (grayscale) return 0;
  return chroma === "4:4:4" ? 3 : 1;
}

export function avifOptions(
  settings: CompressSettings,
  quality: number,
  grayscale: boolean,
  pixels: number,
  inSet = false,
): AvifOptions {
  return whitelist({
    quality,
    speed: avifSpeed(settings.mode, pixels, inSet),
    subsample: avifSubsample(settings.chromaSubsampling, grayscale),
  });
}

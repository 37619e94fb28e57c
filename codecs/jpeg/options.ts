/** Maps the product's settings to MozJPEG options (the table in codecs/README.md). */
import type { CompressSettings, Mode } from "../../contract/settings.ts";
import { defaults, type MozJpegOptions, type QuantTable, whitelist } from "./meta.ts";

interface Effort {
  trellis_loops: number;
  trellis_opt_zero: boolean;
  trellis_multipass: boolean;
}

/** Encode time for bytes: more trellis work finds cheaper coefficient choices. */
export const EFFORT_BY_MODE: Readonly<Record<Mode, Effort>> = {
  speed: { trellis_loops: 1, trellis_opt_zero: false, trellis_multipass: false },
  balanced: { trellis_loops: 1, trellis_opt_zero: true, trellis_multipass: false },
  quality: { trellis_loops: 2, trellis_opt_zero: true, trellis_multipass: true },
};

/** Settings with mozjpeg:false get no extra trellis work: the closest to libjpeg the build allows. */
const LIBJPEG_EFFORT: Effort = { trellis_loops: 1, trellis_opt_zero: false, trellis_multipass: false };

/** MozJPEG's default table preset (fixed quality). */
export const DEFAULT_TABLE: QuantTable = 3;

/** `table`: the MozJPEG table preset (only with `mozjpeg`: libjpeg's tables stay libjpeg's). */
export function mozJpegOptions(
  settings: CompressSettings,
  quality: number,
  grayscale: boolean,
  table: QuantTable = DEFAULT_TABLE,
): MozJpegOptions {
  const effort = settings.mozjpeg ? EFFORT_BY_MODE[settings.mode] : LIBJPEG_EFFORT;
  return whitelist({
    ...defaults,
    ...effort,
    quality,
    chroma_quality: quality,
    progressive: settings.progressive,
    // Web-safe = Huffman optimisation, and 8-bit quantisation tables for sequential
    // output (a SOF0 baseline file at every quality). `baseline` disables progression
    // in this build, so progressive output keeps it off.
    optimize_coding: settings.optimizeForWeb,
    baseline: settings.optimizeForWeb && !settings.progressive,
    quant_table: settings.mozjpeg ? table : 0,
    color_space: grayscale ? 1 : 3,
    // 4:2:2 is not expressible (the build sets luma h and v together); it is
    // emulated on 4:4:4 with horizontally averaged chroma (see image/chroma.ts).
    chroma_subsample: settings.chromaSubsampling === "4:2:0" ? 2 : 1,
  });
}

/** The job list's thumbnails: small and quick, whatever the job's settings. */
export function thumbnailOptions(): MozJpegOptions {
  return whitelist({ ...defaults, ...EFFORT_BY_MODE.speed, quality: 70, chroma_quality: 70, color_space: 3 });
}

/** MozJPEG (via @jsquash/jpeg 1.6.0): the options we let reach the WASM. */
/**
 * The whitelisted encoder options. `arithmetic` is deliberately absent: the
 * emscripten build calls exit() on options it cannot honour, so only keys
 * and values listed here ever reach the WASM.
 */
export interface MozJpegOptions {
  quality: number;
  baseline: boolean;
  arithmetic: false;
  progressive: boolean;
  optimize_coding: boolean;
  smoothing: number;
  /** 1 grayscale, 3 YCbCr. */
  color_space: 1 | 3;
  /**
   * MozJPEG's table presets: 0 = JPEG Annex K (libjpeg), 3 = MozJPEG's default (ImageMagick-derived),
   * 2 = tuned for MS-SSIM (score searches: codecs/pipeline/targets.ts).
   */
  quant_table: QuantTable;
  trellis_multipass: boolean;
  trellis_opt_zero: boolean;
  trellis_opt_table: boolean;
  trellis_loops: number;
  /** Must stay false: with auto_subsample the encoder ignores chroma_subsample. */
  auto_subsample: false;
  /** Luma h/v sampling factor: 1 = 4:4:4, 2 = 4:2:0 (the build sets h and v together). */
  chroma_subsample: 1 | 2;
  separate_chroma_quality: false;
  chroma_quality: number;
}

export const QUANT_TABLES = [0, 2, 3] as const;
export type QuantTable = (typeof QUANT_TABLES)[number];

export const defaults: MozJpegOptions = {
  quality: 80,
  baseline: false,
  arithmetic: false,
  progressive: false,
  optimize_coding: true,
  smoothing: 0,
  color_space: 3,
  quant_table: 3,
  trellis_multipass: false,
  trellis_opt_zero: true,
  trellis_opt_table: false,
  trellis_loops: 1,
  auto_subsample: false,
  chroma_subsample: 2,
  separate_chroma_quality: false,
  chroma_quality: 80,
};

/** Copies only known keys with checked values: nothing else reaches the WASM. */
export function whitelist(options: MozJpegOptions): MozJpegOptions {
  const int = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v)));
  return {
    quality: int(options.quality, 1, 100),
    baseline: options.baseline === true,
    arithmetic: false,
    progressive: options.progressive === true,
    optimize_coding: options.optimize_coding === true,
    smoothing: int(options.smoothing, 0, 100),
    color_space: options.color_space === 1 ? 1 : 3,
    quant_table: QUANT_TABLES.includes(options.quant_table) ? options.quant_table : 3,
    trellis_multipass: options.trellis_multipass === true,
    trellis_opt_zero: options.trellis_opt_zero === true,
    trellis_opt_table: options.trellis_opt_table === true,
    trellis_loops: int(options.trellis_loops, 1, 4),
    auto_subsample: false,
    chroma_subsample: options.chroma_subsample === 1 ? 1 : 2,
    separate_chroma_quality: false,
    chroma_quality: int(options.chroma_quality, 1, 100),
  };
}

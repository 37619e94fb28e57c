/**
 * libavif 1.0.1 with libaom (via @jsquash/avif 2.1.1): the options we let reach the WASM. Every field of the
 * binding's AvifOptions is set here (embind refuses a missing field), the ones we do not choose at jsquash's
 * defaults; `lossless`, `bitDepth` above 8 and alpha quality never reach it.
 */

/** libavif's `subsample` values in this binding: 0 = 4:0:0 (grey), 1 = 4:2:0, 3 = 4:4:4 (2 = 4:2:2, not used). */
export type AvifSubsample = 0 | 1 | 3;

export interface AvifOptions {
  /** 0-100, libavif's quality scale: quantizer = round((100 - quality) × 63 / 100). */
  quality: number;
  /** libaom's speed preset: 0 (slowest, smallest) - 10 (fastest). */
  speed: number;
  subsample: AvifSubsample;
}

/** The binding's full option record (codec/enc/avif_enc.d.ts, plus 2.1's bitDepth and lossless). */
export interface AvifBindingOptions extends AvifOptions {
  qualityAlpha: number;
  denoiseLevel: number;
  tileRowsLog2: number;
  tileColsLog2: number;
  chromaDeltaQ: boolean;
  sharpness: number;
  /** 0 = auto: libavif's tune=ssim from quality 50 up, libaom's default (PSNR) below. */
  tune: 0;
  enableSharpYUV: boolean;
  bitDepth: 8;
  lossless: false;
}

export const defaults: AvifOptions = { quality: 60, speed: 6, subsample: 1 };

const SUBSAMPLES: readonly AvifSubsample[] = [0, 1, 3];

/** libavif's quantiser for a quality (0-63; lower is finer): neighbouring qualities often share one. */
export const avifQuantizer = (quality: number): number => Math.round(((100 - quality) * 63) / 100);

export function whitelist(options: AvifOptions): AvifBindingOptions {
  const int = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v)));
  return {
    // 100 would be lossless only at 4:4:4 (the binding's rule); at 4:2:0 it is the finest quantizer.
    quality: int(options.quality, 0, 100),
    speed: int(options.speed, 0, 10),
    subsample: SUBSAMPLES.includes(options.subsample) ? options.subsample : 1,
    qualityAlpha: -1,
    denoiseLevel: 0,
    tileRowsLog2: 0,
    tileColsLog2: 0,
    chromaDeltaQ: false,
    sharpness: 0,
    tune: 0,
    enableSharpYUV: false,
    bitDepth: 8,
    lossless: false,
  };
}

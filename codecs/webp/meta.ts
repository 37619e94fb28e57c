/** libwebp (via @jsquash/webp 1.5.0): the options we let reach the WASM. */
/** The whitelisted subset of libwebp's WebPConfig; everything else stays at jsquash's defaults. */
export interface WebpOptions {
  quality: number;
  /** 0 (fast) - 6 (slowest, smallest). */
  method: number;
  use_sharp_yuv: 0 | 1;
  lossless: 0;
}

export const defaults: WebpOptions = { quality: 80, method: 4, use_sharp_yuv: 0, lossless: 0 };

export function whitelist(options: WebpOptions): WebpOptions {
  const int = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v)));
  return {
    quality: int(options.quality, 0, 100),
    method: int(options.method, 0, 6),
    use_sharp_yuv: options.use_sharp_yuv === 1 ? 1 : 0,
    lossless: 0,
  };
}

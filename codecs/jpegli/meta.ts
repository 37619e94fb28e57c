/** jpegli (Google's libjpeg-compatible encoder, our own WASM build): its options. */
/** The options our entry point (entry.cc) takes; nothing else reaches the WASM. */
export interface JpegliOptions {
  /** Butteraugli distance (0.01-25; 1.0 is about visually lossless): what jpegli's quantiser aims at. */
  distance: number;
  /** Luma sampling: 4:4:4, 4:2:2 (2×1, native) or 4:2:0 (2×2). */
  chroma: "4:4:4" | "4:2:2" | "4:2:0";
  /** 0 = sequential; 1-2 = jpegli's progressive scan scripts (2 is its default). */
  progressiveLevel: 0 | 1 | 2;
  /** jpegli's adaptive quantisation: per-block quantiser scaling from local contrast. */
  adaptiveQuantization: boolean;
  /** Optimised Huffman tables (jpegli's default leaves them off). */
  optimizeCoding: boolean;
  grayscale: boolean;
}

/** jpegli's own quality → distance mapping (`jpegli_quality_to_distance`, as `cjpegli -q` uses it). */
export function qualityToDistance(quality: number): number {
  const q = Math.min(100, Math.max(1, quality));
  return q >= 100 ? 0.01 : q >= 30 ? 0.1 + (100 - q) * 0.09 : (53 / 3000) * q * q - (23 / 20) * q + 25;
}

export const defaults: JpegliOptions = {
  distance: qualityToDistance(80),
  chroma: "4:2:0",
  progressiveLevel: 0,
  adaptiveQuantization: true,
  optimizeCoding: true,
  grayscale: false,
};

/** jpegli (Google's libjpeg-compatible encoder, our own WASM build): label, output type and options. */
export const label = "jpegli";
export const mimeType = "image/jpeg";
export const extension = "jpg";

/** The options our entry point (entry.cc) takes; nothing else reaches the WASM. */
export interface JpegliOptions {
  quality: number;
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

export const defaults: JpegliOptions = {
  quality: 80,
  chroma: "4:2:0",
  progressiveLevel: 0,
  adaptiveQuantization: true,
  optimizeCoding: true,
  grayscale: false,
};

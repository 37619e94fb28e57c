import { type CodecPool, createCodecPool } from "../../../codecs/mod.ts";
import type { Compressor } from "./compressor.ts";

export interface CodecCompressorOptions {
  workers: number;
  jobTimeoutMs: number;
}

/**
 * Pixels in work at once. Lower than the pool's default (40 MP) because this
 * process also holds every upload and result in memory. Measured with a
 * 20 × 10.4 MB upload (10-18 MP photos): 24 MP → 1011 MB peak, 30 MP → 1242 MB,
 * 40 MP → 1318 MB; the cost is time (56 s against 38 s).
 */
export const SERVER_IN_FLIGHT_PIXELS = 24_000_000;

/**
 * The real compressor: the WASM worker pool. The scheduler never hands it more
 * jobs than it has workers, so its own queue only absorbs hand-over gaps.
 */
export function createCodecCompressor({ workers, jobTimeoutMs }: CodecCompressorOptions): Compressor {
  const pool: CodecPool = createCodecPool({
    size: workers,
    jobTimeoutMs,
    maxQueue: workers * 4,
    maxInFlightPixels: SERVER_IN_FLIGHT_PIXELS,
  });
  return {
    size: workers,
    pixelBudget: SERVER_IN_FLIGHT_PIXELS,
    async compress(bytes, settings, call) {
      const r = await pool.compress(bytes, settings, {
        signal: call.signal,
        maxPixels: call.maxPixels,
        onProgress: (_stage, percent) => call.onProgress(percent),
      });
      return {
        bytes: r.bytes,
        mimeType: r.mimeType,
        width: r.width,
        height: r.height,
        compressedSize: r.compressedSize,
        keptOriginal: r.keptOriginal,
        scores: r.quality,
        metadata: r.metadata,
        chosenQuality: r.chosenQuality,
      };
    },
    close: () => pool.close(),
  };
}

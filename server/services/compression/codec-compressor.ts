import { type CodecPool, createCodecPool, estimateJobMemory } from "../../../codecs/mod.ts";
import type { Compressor } from "./compressor.ts";

export interface CodecCompressorOptions {
  workers: number;
  jobTimeoutMs: number;
}

/**
 * The real compressor: the WASM worker pool. The scheduler never hands it more
 * jobs than it has workers, so its own queue only absorbs hand-over gaps.
 */
export function createCodecCompressor({ workers, jobTimeoutMs }: CodecCompressorOptions): Compressor {
  const pool: CodecPool = createCodecPool({ size: workers, jobTimeoutMs, maxQueue: workers * 4 });
  return {
    size: workers,
    jobMemory: estimateJobMemory,
    async compress(bytes, settings, call) {
      const r = await pool.compress(bytes, settings, {
        signal: call.signal,
        maxPixels: call.maxPixels,
        deferScore: call.deferScore,
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
        thumbnail: r.thumbnail,
      };
    },
    score: (original, output, call) => pool.score(original, output, { signal: call.signal }),
    close: () => pool.close(),
  };
}

/** No codec at all (WORKERS=0): the scheduler gets no slots, so nothing is ever handed to it. */
export function noCompressor(): Compressor {
  const refuse = () => Promise.reject(new Error("This instance runs no jobs (WORKERS=0)"));
  return { size: 0, compress: refuse, score: refuse, close: () => Promise.resolve() };
}

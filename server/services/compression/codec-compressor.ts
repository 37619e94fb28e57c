import { createCodecPool, estimateJobMemory } from "../../../codecs/mod.ts";
import { createInProcessCodec, type InProcessCodec, workersAvailable } from "../../../codecs/pool/in-process.ts";
import type { Compressor } from "./compressor.ts";
import type { CompressSettings } from "../../../contract/settings.ts";

export interface CodecCompressorOptions {
  workers: number;
  jobTimeoutMs: number;
  /**
   * Run the codec on this thread, one job at a time (CODEC_IN_PROCESS=true); also taken when the
   * runtime has no Web Workers (Deno Deploy).
   */
  inProcess?: boolean;
  /** After each compression, score or restore has ended, whatever its outcome (the memory trim, ADR 053). */
  onJobEnd?: () => void;
}

/**
 * A web set makes widths × formats outputs, each searched: its job may take one limit per two outputs (the
 * default set's 8: four times a photo's), so a large photo's set is not cut off on a busy machine.
 */
export const timeoutScale = (settings: CompressSettings): number =>
  settings.widths ? Math.max(1, Math.ceil((settings.widths.length * settings.formats.length) / 2)) : 1;

/**
 * The real compressor: the WASM worker pool. The scheduler never hands it more
 * jobs than it has workers, so its own queue only absorbs hand-over gaps.
 * In process (no workers), one job at a time: `size` is 1 whatever `workers` says.
 */
export function createCodecCompressor(
  { workers, jobTimeoutMs, inProcess, onJobEnd }: CodecCompressorOptions,
): Compressor {
  const local = inProcess || !workersAvailable();
  const pool: InProcessCodec = local
    ? createInProcessCodec({ jobTimeoutMs })
    : createCodecPool({ size: workers, jobTimeoutMs, maxQueue: workers * 4 });
  const ended = <T>(work: Promise<T>): Promise<T> => onJobEnd ? work.finally(onJobEnd) : work;
  return {
    size: local ? 1 : workers,
    jobMemory: estimateJobMemory,
    async compress(bytes, settings, call) {
      const r = await ended(pool.compress(bytes, settings, {
        signal: call.signal,
        timeoutMs: jobTimeoutMs * timeoutScale(settings),
        maxPixels: call.maxPixels,
        deferScore: call.deferScore,
        lanes: call.lanes,
        onProgress: (_stage, percent) => call.onProgress(percent),
      }));
      return {
        bytes: r.bytes,
        mimeType: r.mimeType,
        encoder: r.encoder,
        width: r.width,
        height: r.height,
        compressedSize: r.compressedSize,
        keptOriginal: r.keptOriginal,
        scores: r.quality,
        metadata: r.metadata,
        chosenQuality: r.chosenQuality,
        thumbnail: r.thumbnail,
        set: r.set,
        formatChoice: r.formatChoice ?? null,
        heldSize: r.heldSize ?? null,
      };
    },
    score: (original, output, call) => ended(pool.score(original, output, { signal: call.signal })),
    // Restores wait behind the queued jobs at a higher priority than none: a download, not a compression.
    restore: (jxl) => ended(pool.restore(jxl, { priority: 1 })),
    close: () => pool.close(),
  };
}

/** No codec at all (WORKERS=0): the scheduler gets no slots, so nothing is ever handed to it. */
export function noCompressor(): Compressor {
  const refuse = () => Promise.reject(new Error("This instance runs no jobs (WORKERS=0)"));
  return { size: 0, compress: refuse, score: refuse, close: () => Promise.resolve() };
}

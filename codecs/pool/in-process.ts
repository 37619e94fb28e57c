/**
 * The codec without workers: the pipeline runs on the calling thread, one job at a time, for
 * runtimes without Web Workers (Deno Deploy) or when CODEC_IN_PROCESS=true. Same calls as the
 * pool (codecs/pool/pool.ts), with what a thread of its own gave up: a running WASM call cannot
 * be stopped, so an abort or the job timeout takes effect between the pipeline's stages, and a
 * job blocks the event loop while a codec call runs (HTTP answers wait for it).
 */
import type { CompressSettings } from "../../contract/settings.ts";
import { CodecError } from "../errors.ts";
import { scoreImage } from "../pipeline/compress.ts";
import { compressJob } from "../pipeline/web-set.ts";
import { jxlToJpeg } from "../jxl/lossless.ts";
import { type CompressResult, type ImageInput, inputBytes, type QualityReport } from "../types.ts";
import type { CompressOptions, ScoreOptions } from "./pool.ts";

export interface InProcessCodec {
  compress(bytes: ImageInput, settings: CompressSettings, options?: CompressOptions): Promise<CompressResult>;
  score(original: ImageInput, output: ImageInput, options?: ScoreOptions): Promise<QualityReport>;
  restore(jxl: ImageInput, options?: ScoreOptions): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Whether this runtime can start Web Workers (Deno Deploy cannot). */
export const workersAvailable = (): boolean => typeof globalThis.Worker === "function";

export function createInProcessCodec({ jobTimeoutMs }: { jobTimeoutMs: number }): InProcessCodec {
  let tail: Promise<unknown> = Promise.resolve();
  let closed = false;
  /** Runs `work` after every earlier job, under the caller's signal and the job timeout. */
  const serial = <T>(
    signal: AbortSignal | undefined,
    work: (signal: AbortSignal) => Promise<T>,
    limitMs = jobTimeoutMs,
  ): Promise<T> => {
    if (closed) return Promise.reject(new CodecError("closed", "The codec is closed"));
    const run = tail.then(async () => {
      const timeout = AbortSignal.timeout(limitMs);
      const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        both.throwIfAborted();
        return await work(both);
      } catch (err) {
        if (timeout.aborted && !signal?.aborted) {
          throw new CodecError("timeout", `Compression took longer than ${limitMs} ms`);
        }
        throw err;
      }
    });
    tail = run.catch(() => {});
    return run;
  };
  return {
    compress: (bytes, settings, options = {}) =>
      serial(
        options.signal,
        async (signal) =>
          compressJob(
            signal,
            {
              bytes: await inputBytes(bytes),
              settings,
              maxPixels: options.maxPixels ?? 50_000_000,
              deferScore: options.deferScore,
            },
            options.onProgress,
          ),
        options.timeoutMs,
      ),
    score: (original, output, options = {}) =>
      serial(
        options.signal,
        async (signal) => scoreImage(signal, await inputBytes(original), await inputBytes(output)),
      ),
    restore: (jxl, options = {}) => serial(options.signal, async () => jxlToJpeg(await inputBytes(jxl))),
    async close() {
      closed = true;
      await tail;
    },
  };
}

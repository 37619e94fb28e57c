/**
 * The compression engine: a bounded pool of Web Workers running MozJPEG and
 * libwebp (WASM), plus a header-only JPEG inspector for refusing uploads early.
 *
 * @example
 * ```ts
 * import { createCodecPool, inspectJpeg, isCodecError } from "./codecs/mod.ts";
 * import { DEFAULT_SETTINGS } from "./contract/settings.ts";
 *
 * const bytes = await Deno.readFile("tests/fixtures/base.jpg");
 * console.log(inspectJpeg(bytes).width); // 128, without decoding pixels
 *
 * const pool = createCodecPool({ size: 2, jobTimeoutMs: 60_000, maxQueue: 100 });
 * try {
 *   const result = await pool.compress(bytes.slice(), { ...DEFAULT_SETTINGS, quality: 75 }, {
 *     priority: 1,
 *     onProgress: (stage, percent) => console.log(stage, percent),
 *   });
 *   console.log(result.compressedSize, result.quality.overall, result.keptOriginal);
 * } catch (error) {
 *   if (isCodecError(error)) console.log(error.code, error.message);
 * } finally {
 *   await pool.close();
 * }
 * ```
 *
 * @module
 */
export {
  type CodecPool,
  type CodecPoolOptions,
  type CompressOptions,
  createCodecPool,
  type PoolStats,
  type ScoreOptions,
} from "./pool/pool.ts";
export {
  type ComponentInfo,
  inspectJpeg,
  type JpegColorSpace,
  type JpegInfo,
  type SofType,
} from "./container/inspect.ts";
export { type JpegSurvey, structureProblem, surveyJpeg } from "./container/survey.ts";
export { type SniffedFormat, sniffFormat } from "./container/sniff.ts";
export { CODEC_ERROR_CODES, CodecError, type CodecErrorCode, HTTP_STATUS_BY_CODE, isCodecError } from "./errors.ts";
export type {
  CompressResult,
  CompressStage,
  CompressTimings,
  ImageInput,
  MeasuredResult,
  MetadataReport,
  ProgressCallback,
  QualityReport,
  SetOutput,
} from "./types.ts";
export { AUTO_SCORE_THRESHOLD } from "./pipeline/targets.ts";
export { encodedFormats, estimateJobMemory, jobBytesPerPixel, SCORE_BYTES_PER_PIXEL } from "./pool/job-memory.ts";
export { setLanes } from "./pipeline/web-set.ts";
/** Largest image (pixels) the WASM codecs handle reliably; see codecs/README.md. */
export const CODEC_MAX_PIXELS = 100_000_000;

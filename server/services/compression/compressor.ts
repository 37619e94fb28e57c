/**
 * What the compression service needs from the codec pool (codecs/mod.ts).
 * Kept as a port so the scheduler's ordering can be tested with a controllable fake.
 */
import type { CodecId, CompressSettings } from "../../../contract/settings.ts";
import type { MetadataReport, QualityScores } from "../../../contract/jobs.ts";
import type { ImageInput, SetOutput } from "../../../codecs/mod.ts";
import type { FormatChoiceReport } from "../../../contract/formats.ts";

export interface CompressOutcome {
  bytes: Uint8Array;
  mimeType: string;
  /** The codec that made `bytes` (null when they are the original's). */
  encoder: CodecId | null;
  width: number;
  height: number;
  compressedSize: number;
  keptOriginal: boolean;
  /** Null when the call deferred measuring: `score` measures it later. */
  scores: QualityScores | null;
  metadata: MetadataReport;
  /** The quality setting a target search settled on. */
  chosenQuality: number | null;
  /** A small upright JPEG for the job list. */
  thumbnail: Uint8Array;
  /** A web set's files, widest first (`bytes` is then empty: web-set-pack.ts makes the result). */
  set?: SetOutput[];
  /** format=auto's choice (null when the format was set or the original kept). */
  formatChoice?: FormatChoiceReport | null;
  /** JPEG XL: the size of the JPEG it holds. */
  heldSize?: number | null;
}

export interface CompressCall {
  signal: AbortSignal;
  onProgress: (percent: number) => void;
  maxPixels: number;
  /** Complete the result first and leave its score for `score` (fixed-quality jobs). */
  deferScore: boolean;
  /** Workers the job may take (a web set running alone: the scheduler's grant); default 1. */
  lanes?: number;
}

export interface Compressor {
  /** How many images it works on at once (the scheduler dispatches this many). */
  readonly size: number;
  /**
   * Estimated peak memory (bytes) of one job on an image of `pixels` in a file of `bytes` whose work holds
   * `perPixel` bytes per pixel, so the scheduler can keep the process within its memory budget. Absent: not limited.
   */
  jobMemory?(pixels: number, bytes: number, perPixel: number): number;
  /** Compresses `bytes` (a buffer is taken over; a Blob is read by the worker). */
  compress(bytes: ImageInput, settings: CompressSettings, call: CompressCall): Promise<CompressOutcome>;
  /** The JPEG a JPEG XL file holds, byte for byte (issue 32); absent where no codec runs. */
  restore?(jxl: Uint8Array): Promise<Uint8Array>;
  /** Measures a result against its original (buffers are taken over, as with `compress`). */
  score(original: ImageInput, output: ImageInput, call: { signal: AbortSignal }): Promise<QualityScores>;
  close(): Promise<void>;
}

/** Public result and option types of the codec engine. */
import type { CodecId } from "../contract/settings.ts";
import type { FormatChoiceReport, OutputFormat } from "../contract/formats.ts";
import type { MetadataReport } from "./container/metadata.ts";
import type { QualityReport } from "./quality/report.ts";

export type { MetadataReport, QualityReport };

/**
 * An image handed to the codecs: bytes (moved into the pool), or a Blob, which crosses to a
 * worker without a copy; the worker reads it, so the copy and its page faults stay off the caller's thread.
 */
export type ImageInput = Uint8Array | Blob;

/** The bytes of an input (a Blob is read: on a worker, that is where the copy happens). */
export async function inputBytes(input: ImageInput): Promise<Uint8Array> {
  return input instanceof Blob ? new Uint8Array(await input.arrayBuffer()) : input;
}

export type CompressStage = "queued" | "inspect" | "decode" | "encode" | "measure" | "done";

export interface CompressTimings {
  decodeMs: number;
  /** Resizing to the settings' box (0 when the pixels stay as they are). */
  resizeMs: number;
  encodeMs: number;
  measureMs: number;
  /** Score searches: encoding and measuring the small mosaic that predicts the full-size score. */
  proxyMs: number;
  totalMs: number;
  /** Score and size targets: full-size encodes, and mosaic encodes that predicted them. */
  probes: number;
  proxyProbes: number;
}

export interface CompressResult {
  bytes: Uint8Array;
  mimeType: string;
  extension: string;
  /** The codec that made `bytes`; null when they are the input's (`keptOriginal`). */
  encoder: CodecId | null;
  /** Upright dimensions (after EXIF orientation). */
  width: number;
  height: number;
  originalSize: number;
  compressedSize: number;
  /** True when the encoded file was not smaller: `bytes` are the input, unchanged. */
  keptOriginal: boolean;
  /** Measured against the original; null when the call deferred it (see `CodecPool.score`). */
  quality: QualityReport | null;
  metadata: MetadataReport;
  /** The quality setting a target search settled on; null without a target. */
  chosenQuality: number | null;
  /** A small upright JPEG for lists (short side 128-255 px, or the image itself if smaller). */
  thumbnail: Uint8Array;
  timings: CompressTimings;
  /** A lossless container's (JPEG XL's) held file size: the JPEG it gives back byte for byte. */
  heldSize?: number;
  /** format=auto's choice (absent when the format was set or the original was kept). */
  formatChoice?: FormatChoiceReport | null;
  /** A web set's files (settings.widths), widest first; `bytes` is then empty (the server packs the files). */
  set?: SetOutput[];
}

/** One file of a web set as the engine made it. */
export interface SetOutput {
  format: OutputFormat;
  encoder: CodecId;
  width: number;
  height: number;
  bytes: Uint8Array;
  /** SSIMULACRA 2 against the original resized to this width. */
  score: number;
}

/** A result measured in the same call (every call that did not defer its score). */
export type MeasuredResult = CompressResult & { quality: QualityReport };

export type ProgressCallback = (stage: CompressStage, percent: number) => void;

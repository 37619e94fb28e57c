/**
 * JPEG XL, losslessly (issue 32): a job's JPEG, or the upload itself (`archive`), transcoded into JPEG XL with
 * its reconstruction data. The pixels are the JPEG's, so the score is the JPEG's; the JPEG comes back byte for
 * byte (`jxlToJpeg`).
 */
import { FORMATS, type OutputFormat } from "../../contract/formats.ts";
import { planMetadata } from "../container/metadata.ts";
import { releasePixels } from "../image/release.ts";
import { jpegToJxl } from "../jxl/lossless.ts";
import { IDENTICAL } from "../quality/report.ts";
import type { CompressResult, ProgressCallback } from "../types.ts";
import { type CompressInput, encodeThumbnail, newTimings, openSource } from "./compress.ts";

/** `held` (a finished JPEG job, or its original kept) as `format`, the lossless container of its bytes. */
export function inLosslessFormat(held: CompressResult, format: OutputFormat): CompressResult {
  const t = performance.now();
  const bytes = jpegToJxl(held.bytes);
  const { mimeType, extension } = FORMATS[format];
  return {
    ...held,
    bytes,
    mimeType,
    extension,
    compressedSize: bytes.length,
    // The container holds the original itself: a new file, the same pixels (and never larger).
    keptOriginal: false,
    heldSize: held.compressedSize,
    timings: { ...held.timings, encodeMs: held.timings.encodeMs + performance.now() - t },
  };
}

/** The upload itself as JPEG XL: no decode but the thumbnail's, no re-encode, no metadata change. */
export async function archiveOriginal(
  signal: AbortSignal,
  input: CompressInput,
  onProgress: ProgressCallback,
): Promise<CompressResult> {
  const started = performance.now();
  const timings = newTimings(1);
  const { bytes } = input;
  // Decoded for the thumbnail alone: the pixels can stay in the decoder's heap.
  const { info, upright } = await openSource(signal, input, onProgress, timings, undefined, true);
  const t = performance.now();
  const thumbnail = await encodeThumbnail(upright);
  const { width, height } = upright;
  releasePixels(upright);
  onProgress("encode", 20);
  const jxl = jpegToJxl(bytes);
  timings.encodeMs = performance.now() - t;
  timings.totalMs = performance.now() - started;
  onProgress("done", 100);
  const report = planMetadata(info, false).report;
  return {
    bytes: jxl,
    mimeType: FORMATS.jxl.mimeType,
    extension: FORMATS.jxl.extension,
    encoder: null,
    width,
    height,
    originalSize: bytes.length,
    compressedSize: jxl.length,
    keptOriginal: false,
    quality: IDENTICAL,
    // The upload itself: everything it had.
    metadata: { ...report, kept: report.found, removed: [] },
    chosenQuality: null,
    thumbnail,
    timings,
    heldSize: bytes.length,
  };
}

import { candidateFormats, type FormatChoice, type OutputFormat } from "../../contract/formats.ts";
import type { ChromaSubsampling, Encoder } from "../../contract/settings.ts";

/**
 * Estimated peak memory of one job: 32 MB plus `perPixel` bytes per pixel (`jobBytesPerPixel`) plus 5 per byte
 * of the file. Fitted on the corpus's photos and the hostile shapes (bench/job-memory.ts: one job on a fresh
 * worker warmed on a small photo, the process's peak RSS over its idle level; `job_memory_*` lines). The budget
 * counts estimates, not measured use (ADR 039: where they fall short). Per byte: the file in JS, in the decoder's
 * heap, the kept metadata and the spliced result. The pipeline frees each JS copy as soon
 * as it is done with it (image/release.ts).
 */
export function estimateJobMemory(pixels: number, bytes = 0, perPixel: number = MEASURING.jpeg): number {
  return 32 * 1024 * 1024 + perPixel * pixels + 5 * bytes;
}

/**
 * Per pixel of the photo, for a job that measures (a score goal, auto, a web set), by the format its output is
 * encoded in. At its peak: the decoded image in JS and in the decoder's heap, the metric's pyramid of it and of a
 * candidate, one encoder's heap. JPEG on auto: 36-42 B/px on most photos, 44-50 on some mid-size ones while
 * MozJPEG's heap was kept beside jpegli's (9.9 MP: 44; 8.3 MP from an 8.5 MB file: 50), until the heaps idle
 * beside a full-size encode were given back (ADR 040: now 20-34 on the public corpus's photos of 6 MP and more,
 * 27-38 on the validation set's). 40 is kept: the validation set's worst (38.1, 8.7 and 9.2 MP) is within it. AVIF's encoder holds 30-36 bytes per pixel of its own and its decoder (a score goal's
 * measure) 18.6; each heap is given back after a large image, so they no longer add up: AVIF jobs on auto peaked
 * at 43-46 bytes per pixel over the 32 MB (6.3, 13.4, 20.4 MP; codecs/README.md, "AVIF"), hence 48. JPEG XL
 * transcodes the finished JPEG once the JPEG path has given its heaps back (pipeline/compress.ts): libjxl's 25-29
 * bytes per pixel of resident memory then stay under the JPEG path's own high-water.
 */
const MEASURING: Readonly<Record<OutputFormat, number>> = { jpeg: 40, webp: 40, avif: 48, jxl: 40 };

/**
 * Per pixel, on the fixed path (one encode, its score deferred), besides JPEG (`fixedJpegBytesPerPixel`): WebP's
 * encoder holds 15-20 B/px measured; AVIF's encoder is the same with or without a goal; JPEG XL keeps its
 * transcode's 40.
 */
const FIXED_PATH: Readonly<Record<Exclude<OutputFormat, "jpeg">, number>> = { webp: 20, avif: 48, jxl: 40 };

/**
 * A fixed JPEG job's bytes per pixel, by encoder and chroma (ADR 055). Measured on 7 Dec 2026 (a fresh worker warmed
 * on a small photo, the process's peak over idle less 32 MiB and 5 per byte of the file; public 20.4 and 12.2 MP
 * photos): MozJPEG at 4:2:0 11.5-15.1 B/px (default, progressive, quality mode, metadata kept), at 4:4:4 18.3-20.6,
 * at 4:2:2 (encoded at 4:4:4 with averaged chroma) 22.2-24.6; jpegli 5.0-9.5 at every chroma (progressive the
 * most); a resize less (the encoder sees the smaller image). Each high divided by KEEP_FROM_SHARE, for heaps kept
 * from a larger alike image (heaps-between-jobs.ts): 20, 30 and 12. The one figure of 28 before held a public
 * batch's 20.4 MP photo alone while the other worker waited (2.4-2.9 worker-seconds of a 12-14 s batch).
 */
export function fixedJpegBytesPerPixel(encoder: Encoder, chroma: ChromaSubsampling): number {
  if (encoder === "jpegli") return 12;
  return chroma === "4:2:0" ? 20 : 30;
}

/**
 * Per pixel of a deferred score: both images decoded and the metric's pyramids; a JPEG result's measured 21-30.5
 * B/px. An AVIF or JPEG XL result's decoder holds 18-19 more (restoring a JPEG XL: 18 B/px), unmeasured as a score:
 * 40, as every job reserved before (with 48 the validation set's HTTP throughput with scores read 0.68 of the raw
 * pool's, 0.94 the run before; not re-measured at 40).
 */
export const SCORE_BYTES_PER_PIXEL = 40;

/** The formats a job's settings encode in: a web set's list, else the one format (format=auto: those allowed). */
export const encodedFormats = (s: { format: FormatChoice; widths: number[] | null; formats: OutputFormat[] }) =>
  s.widths ? s.formats : candidateFormats(s);

/** The fixed path: one encode at the set quality, no goal to search and no set of widths. */
export const isFixedPath = (s: { target: unknown; widths: readonly number[] | null }) =>
  s.target === null && s.widths === null;

/** Bytes per pixel a job with these settings holds at its peak: the most of the formats it encodes in. */
export function jobBytesPerPixel(s: {
  format: FormatChoice;
  widths: number[] | null;
  formats: OutputFormat[];
  target: unknown;
  encoder: Encoder;
  chromaSubsampling: ChromaSubsampling;
}): number {
  const fixedPath = (format: OutputFormat) =>
    format === "jpeg" ? fixedJpegBytesPerPixel(s.encoder, s.chromaSubsampling) : FIXED_PATH[format];
  const perPixel = isFixedPath(s) ? fixedPath : (format: OutputFormat) => MEASURING[format];
  return Math.max(...encodedFormats(s).map(perPixel));
}

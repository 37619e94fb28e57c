import { candidateFormats, type FormatChoice, type OutputFormat } from "../../contract/formats.ts";

/**
 * Estimated peak memory of one job: 32 MB plus 40 bytes per pixel plus 5 per byte of the file.
 * Fitted on the corpus's 24 photos and the hostile shapes (bench/job-memory.ts: one job on a fresh
 * worker warmed on a small photo, the process's peak RSS over its idle level): every measured peak
 * within 0.98 of it while every codec kept its heap. Since MozJPEG's and jpegli's encoders give theirs back
 * after a large image (codec-instance.ts, ADR 035), JPEG jobs peak at 0.67-0.81 of it (13.4 MP → 446 of 550
 * MB; 20.4 MP on auto → 648 of 833; the 13.4 MP with 22 MB of kept metadata → 515 of 662): kept, not cut, as
 * the margin that bounds the server's total (the budget counts estimates, not measured use). At the peak:
 * the decoded image in JS and in the decoder's heap, the metric's pyramid of it and of a candidate, one
 * encoder's heap; per byte, the file in JS, in the decoder's heap, the kept metadata and the spliced result.
 * The pipeline frees each JS copy as soon as it is done with it (image/release.ts).
 */
export function estimateJobMemory(pixels: number, bytes = 0, formats: readonly OutputFormat[] = ["jpeg"]): number {
  const perPixel = Math.max(...formats.map((f) => BYTES_PER_PIXEL[f]));
  return 32 * 1024 * 1024 + perPixel * pixels + 5 * bytes;
}

/**
 * Per pixel of the photo, by the format its output is encoded in (a web set: the most of its formats).
 * AVIF's encoder holds 30-36 bytes per pixel of its own and its decoder (a score goal's measure) 18.6; each
 * heap is given back after a large image, and MozJPEG's decoder's once the source is read (codec-instance.ts),
 * so they no longer add up: AVIF jobs on auto peaked at 43-46 bytes per pixel over the 32 MB (6.3, 13.4,
 * 20.4 MP; codecs/README.md, "AVIF"), hence 48 (72 while every heap stayed). JPEG XL transcodes the finished JPEG
 * once the JPEG path has given its heaps back (pipeline/compress.ts): libjxl's 25-29 bytes per pixel of resident
 * memory then stay under the JPEG path's own high-water (8.3 MP: 336 MB either way; 20.4 MP: 649 MB, 809 while
 * the heaps stayed), hence the JPEG path's 40 (40 + 60 before).
 */
const BYTES_PER_PIXEL: Readonly<Record<OutputFormat, number>> = { jpeg: 40, webp: 40, avif: 48, jxl: 40 };

/** The formats a job's settings encode in: a web set's list, else the one format (format=auto: those allowed). */
export const encodedFormats = (s: { format: FormatChoice; widths: number[] | null; formats: OutputFormat[] }) =>
  s.widths ? s.formats : candidateFormats(s);

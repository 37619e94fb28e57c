/**
 * The heaps a search's full-size encode need not have beside it (ADR 040). A search holds the image, its pyramid
 * and, per probe, one encoder's heap, then the decoder's and the candidate's pyramid to measure it. Kept through
 * the job, the other encoders' heaps (MozJPEG's 16 bytes per pixel until 12 MP, jpegli's, AVIF's) and the JPEG
 * decoder's (4.2) sat beside that: on a mid-size photo the peak was 44-50 bytes per pixel against the 40 the job
 * reserves. Given back before each full-size encode, they cost the next user its page faults (the decoder,
 * once per probe; an encoder, once per switch of encoder), and no measurable time: ADR 040.
 */
import type { Codec } from "../codec.ts";
import { CODECS } from "../registry.ts";
import { releaseJpegDecoderHeap } from "../jpeg/decode.ts";
import { spareMetricHeap } from "../quality/ssimulacra2.ts";

/** A heap at or under this is kept (a 1 MP image's MozJPEG encoder; a 4 MP image's JPEG decoder). */
export const SEARCH_KEEP_HEAP_BYTES = 16 * 2 ** 20;

/**
 * Encoders this slow (AVIF at 620 ms/MP) run without the metric's heap either (ADR 036): rebuilding its pyramids
 * (the original's at about 10 ms/MP, the mosaic's) from pixels the job holds anyway costs them about 3%.
 */
const SPARE_METRIC_FROM_MS_PER_MP = 300;
/**
 * ... when it holds more than this (the pyramids of a 2.6 MP image): below, a saving not worth a rebuild. At 128 MiB
 * the validation set's mixed run (4.1 MP photos, two AVIF jobs at a time) peaked 1,266 MB; at 48 MiB 1,121.
 */
const SPARE_METRIC_OVER_BYTES = 48 * 2 ** 20;

/**
 * Before a full-size encode with `codec`: every other encoder and the JPEG decoder give back their heaps over
 * SEARCH_KEEP_HEAP_BYTES, and the metric's when `codec` is slow. Every encoder, not only the search's: a worker
 * keeps heaps of up to 48 MiB from its earlier jobs (idle-heaps.ts), and an AVIF job after a JPEG batch found
 * MozJPEG's and jpegli's beside its own. True when one was dropped (the caller collects it).
 */
export function releaseHeapsBeside(codec: Codec): boolean {
  let dropped = codec.encodeMsPerMp >= SPARE_METRIC_FROM_MS_PER_MP && spareMetricHeap(SPARE_METRIC_OVER_BYTES);
  dropped = releaseJpegDecoderHeap(SEARCH_KEEP_HEAP_BYTES) || dropped;
  for (const other of Object.values(CODECS)) {
    if (other !== codec) dropped = other.releaseEncoderHeap(SEARCH_KEEP_HEAP_BYTES) || dropped;
  }
  return dropped;
}

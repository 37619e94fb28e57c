/**
 * Estimated peak memory of one job: 32 MB plus 40 bytes per pixel plus 5 per byte of the file.
 * Fitted on the corpus's 24 photos and the hostile shapes (bench/job-memory.ts: one job on a fresh
 * worker warmed on a small photo, the process's peak RSS over its idle level): every measured peak
 * within 0.98 of it (13.4 MP → 535 of 550 MB, 20.4 MP → 784 of 833 MB, the same 13.4 MP with 22 MB
 * of kept metadata → 649 of 662 MB). At the peak, while encoding: the decoded image in JS and in the
 * decoder's heap, two copies in the encoder's heap (its binding copies the RGBA twice), the encoder's
 * coefficients and the measuring planes; per byte, the file in JS, in the decoder's heap, the kept
 * metadata and the spliced result. The pipeline frees each JS copy as soon as it is done with it
 * (image/release.ts).
 */
export function estimateJobMemory(pixels: number, bytes = 0): number {
  return 32 * 1024 * 1024 + 40 * pixels + 5 * bytes;
}

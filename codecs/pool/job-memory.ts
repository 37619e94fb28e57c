/**
 * Estimated peak memory of one job, from whole jobs on the corpus at default
 * settings over an idle process (4.1 MP → 150 MB, 10.4 MP → 295 MB, 18.3 MP
 * → 483 MB, 20.4 MP → 513 MB): about 65 MB plus 24 bytes per pixel. At the
 * peak, while encoding: the decoded image in JS and in the decoder's heap,
 * two copies in the encoder's heap (its binding copies the RGBA twice), the
 * encoder's coefficients and the measuring planes. The pipeline frees each
 * JS copy as soon as it is done with it (image/release.ts).
 */
export function estimateJobMemory(pixels: number): number {
  return 65 * 1024 * 1024 + 24 * pixels;
}

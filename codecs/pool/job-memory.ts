/**
 * Estimated peak memory of one job, from measurements of whole jobs on the
 * corpus at default settings (4.9 MP → 204 MB, 10.4 MP → 343 MB, 18.3 MP →
 * 565 MB over an idle process): about 75 MB plus 27 bytes per pixel (the
 * decoded image in JS and in the decoder's heap, two copies in the encoder's
 * heap, its coefficients, the decoded output and the measuring planes).
 */
export function estimateJobMemory(pixels: number): number {
  return 75 * 1024 * 1024 + 27 * pixels;
}

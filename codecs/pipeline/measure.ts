/** An encoded candidate of a job, and how an output is measured against the original's planes. */
import type { Codec } from "../codec.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { releasePixels } from "../image/release.ts";
import { type MeasurePlanes, measurePlanes } from "../quality/planes.ts";
import { compareQuality, type QualityReport } from "../quality/report.ts";

export interface Encoded {
  codec: Codec;
  quality: number;
  bytes: Uint8Array;
  size: number;
  /** The unrounded SSIMULACRA 2 (0 when not measured). */
  score: number;
  report: QualityReport | null;
}

/** Decodes an output with the codec that reads it and compares it with the original's pyramid. */
export async function measureOutput(
  out: Uint8Array,
  codec: Pick<Codec, "decode">,
  original: MeasurePlanes,
): Promise<QualityReport> {
  // The metric copies the pixels into its own heap at once: they need not leave the decoder's.
  return measureDecoded(await codec.decode(out, true), original);
}

/** Compares decoded output pixels with the original's pyramid (the pixels are released). */
export function measureDecoded(decoded: RgbaImage, original: MeasurePlanes): QualityReport {
  const planes = measurePlanes(decoded, original.factor);
  releasePixels(decoded);
  try {
    return compareQuality(original.pyramid, planes.pyramid, original.grayscale);
  } finally {
    planes.pyramid.free();
  }
}

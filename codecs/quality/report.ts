/**
 * The quality report shown in the Compare panel and used by targets
 * (definitions in codecs/README.md). Everything comes from one SSIMULACRA 2.1
 * comparison (./ssimulacra2.ts); all sub-scores are 0-100, higher is better.
 */
import type { QualityScores } from "../../contract/jobs.ts";
import { compareXyb, scoreFromWeightedSum, weightIndex, WEIGHTS, type XybPyramid } from "./ssimulacra2.ts";

/** The shape the API serves (contract/jobs.ts), defined once. */
export type QualityReport = QualityScores;

export type QualityVerdict = "good" | "fair" | "poor";

/** The spec's bands, on the SSIMULACRA 2 scale. */
export function verdict(overall: number): QualityVerdict {
  return overall >= 85 ? "good" : overall >= 70 ? "fair" : "poor";
}

export const IDENTICAL: QualityReport = {
  ssimulacra2: 100,
  score: 100,
  sharpness: 100,
  colorAccuracy: 100,
  artifacts: 100,
  overall: 100,
};

const ARTIFACT_MAP = 1, DETAIL_MAP = 2;
const X = 0, B = 2;

/**
 * A sub-score is the SSIMULACRA 2 score the image would get if only some of the
 * metric's 108 weighted terms counted: the same mapping, fewer errors.
 */
function partialScore(norms: Float64Array, keep: (channel: number, map: number) => boolean): number {
  let sum = 0;
  for (let c = 0; c < 3; c++) {
    for (let scale = 0; scale < 6; scale++) {
      for (let norm = 0; norm < 2; norm++) {
        for (let map = 0; map < 3; map++) {
          if (!keep(c, map)) continue;
          const i = weightIndex(c, scale, norm, map);
          sum += WEIGHTS[i]! * Math.abs(norms[i]!);
        }
      }
    }
  }
  return clamp(scoreFromWeightedSum(sum));
}

export function compareQuality(original: XybPyramid, output: XybPyramid): QualityReport {
  const { score: raw, norms } = compareXyb(original, output);
  const score = clamp(raw);
  return {
    ssimulacra2: round(raw, 2),
    score: round(score, 1),
    // Detail kept: the detail-loss map (edges of the original missing from the output), all channels.
    sharpness: round(partialScore(norms, (_c, map) => map === DETAIL_MAP), 1),
    // Ringing, blocking, banding: the artifact map (edges the original does not have), all channels.
    artifacts: round(partialScore(norms, (_c, map) => map === ARTIFACT_MAP), 1),
    // Colour: every term of the chroma channels X and B (SSIM and both edge maps).
    colorAccuracy: round(partialScore(norms, (c) => c === X || c === B), 1),
    overall: round(score, 1),
  };
}

const clamp = (v: number) => Math.min(100, Math.max(0, v));
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

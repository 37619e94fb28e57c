/**
 * The quality report shown in the Compare panel (definitions in codecs/README.md).
 * All sub-scores are 0-100, higher is better.
 */
import type { QualityScores } from "../../contract/jobs.ts";
import { halve, type MeasurePlanes, type Plane } from "./planes.ts";
import { percentile, ssim } from "./ssim.ts";

/** The shape the API serves (contract/jobs.ts), defined once. */
export type QualityReport = QualityScores;

export type QualityVerdict = "good" | "fair" | "poor";

export function verdict(overall: number): QualityVerdict {
  return overall >= 85 ? "good" : overall >= 70 ? "fair" : "poor";
}

/** Scales 1, 1/2, 1/4 with weights favouring fine detail, as in MS-SSIM. */
const SCALE_WEIGHTS = [0.5, 0.3, 0.2] as const;
/** DSSIM (1 - SSIM) of 0.01 costs 10 points: 0.99 → 90, 0.97 → 70. */
const POINTS_PER_DSSIM = 1000;

const ARTIFACT_POINTS_PER_DSSIM = 300;

export function scoreFromSsim(value: number): number {
  return clamp(100 - POINTS_PER_DSSIM * (1 - value));
}

export const IDENTICAL: QualityReport = {
  ssim: 1,
  score: 100,
  sharpness: 100,
  colorAccuracy: 100,
  artifacts: 100,
  overall: 100,
};

export function compareQuality(original: MeasurePlanes, output: MeasurePlanes): QualityReport {
  let a: Plane = original.luma, b: Plane = output.luma;
  const full = ssim(a, b);
  let ms = Math.pow(Math.max(full.mean, 1e-6), SCALE_WEIGHTS[0]);
  for (const weight of SCALE_WEIGHTS.slice(1)) {
    a = halve(a);
    b = halve(b);
    ms *= Math.pow(Math.max(ssim(a, b).mean, 1e-6), weight);
  }
  const score = scoreFromSsim(ms);
  // Detail kept: gradient energy of the output relative to the original (blur lowers it).
  const sharpness = clamp(
    100 * Math.min(1, gradientEnergy(output.luma) / Math.max(1e-6, gradientEnergy(original.luma))),
  );
  // Colour: mean CIE76 ΔE on 4×-reduced Lab; ΔE 2.3 (one just-noticeable difference) ≈ 79.
  const colorAccuracy = clamp(100 * Math.exp(-meanDeltaE(original.lab, output.lab) / 10));
  // Artefacts: the worst 5% of windows (blocking and ringing are local), on a
  // gentler scale than the mean since worst-case windows sit far lower.
  const artifacts = clamp(100 - ARTIFACT_POINTS_PER_DSSIM * (1 - percentile(full.windows, 0.05)));
  const overall = clamp(0.5 * score + 0.2 * sharpness + 0.15 * colorAccuracy + 0.15 * artifacts);
  return {
    ssim: round(full.mean, 4),
    score: round(score, 1),
    sharpness: round(sharpness, 1),
    colorAccuracy: round(colorAccuracy, 1),
    artifacts: round(artifacts, 1),
    overall: round(overall, 1),
  };
}

function gradientEnergy(plane: Plane): number {
  const { data, width, height } = plane;
  let sum = 0;
  for (let y = 0; y + 1 < height; y++) {
    let p = y * width;
    for (let x = 0; x + 1 < width; x++, p++) {
      sum += Math.abs(data[p + 1]! - data[p]!) + Math.abs(data[p + width]! - data[p]!);
    }
  }
  return sum / Math.max(1, (width - 1) * (height - 1));
}

function meanDeltaE(a: MeasurePlanes["lab"], b: MeasurePlanes["lab"]): number {
  const n = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const dl = a.l[i]! - b.l[i]!, da = a.a[i]! - b.a[i]!, db = a.b[i]! - b.b[i]!;
    sum += Math.sqrt(dl * dl + da * da + db * db); // Math.hypot is several times slower
  }
  return n ? sum / n : 0;
}

const clamp = (v: number) => Math.min(100, Math.max(0, v));
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

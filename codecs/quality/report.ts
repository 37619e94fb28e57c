/**
 * The quality report shown in the Compare panel and used by targets
 * (definitions in codecs/README.md). Everything comes from one SSIMULACRA 2.1
 * comparison (./ssimulacra2.ts); all sub-scores are 0-100 on SSIMULACRA 2's scale, higher is better.
 */
import type { QualityScores } from "../../contract/jobs.ts";
import { scoreWord } from "../../contract/score-words.ts";
import { compareXyb, scoreFromWeightedSum, weightIndex, WEIGHTS, type XybPyramid } from "./ssimulacra2.ts";

/** The shape the API serves (contract/jobs.ts), defined once. */
export type QualityReport = QualityScores;

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

/** The sub-scores, each with the metric's terms it keeps. */
export const SUB_SCORES = {
  // Detail kept: the detail-loss map (edges of the original missing from the output), all channels.
  sharpness: (_c: number, map: number) => map === DETAIL_MAP,
  // Ringing, blocking, banding: the artifact map (edges the original does not have), all channels.
  artifacts: (_c: number, map: number) => map === ARTIFACT_MAP,
  // Colour: every term of the chroma channels X and B (SSIM and both edge maps).
  colorAccuracy: (c: number) => c === X || c === B,
} as const;
export type SubScore = keyof typeof SUB_SCORES;

/**
 * The weighted error sums behind a report: all 108 terms (the metric's own sum) and each
 * sub-score's share of them. `scoreFromWeightedSum(total)` is the SSIMULACRA 2 score.
 */
export type QualityTerms = Record<SubScore | "total", number>;

export function qualityTerms(norms: Float64Array): QualityTerms {
  const terms: QualityTerms = { total: 0, sharpness: 0, artifacts: 0, colorAccuracy: 0 };
  const kinds = Object.entries(SUB_SCORES) as [SubScore, (c: number, map: number) => boolean][];
  for (let c = 0; c < 3; c++) {
    for (let scale = 0; scale < 6; scale++) {
      for (let norm = 0; norm < 2; norm++) {
        for (let map = 0; map < 3; map++) {
          const i = weightIndex(c, scale, norm, map);
          const term = WEIGHTS[i]! * Math.abs(norms[i]!);
          terms.total += term;
          for (const [kind, keeps] of kinds) if (keeps(c, map)) terms[kind] += term;
        }
      }
    }
  }
  return terms;
}

/**
 * How much each sub-score's errors are scaled before the metric's own mapping to 0-100, so that
 * a sub-score reads on SSIMULACRA 2's scale: a sub-score is the score the image would get if all
 * its faults were like this kind, in the proportion this kind has in a typical photo's errors.
 * Grayscale images have their own: without chroma errors, a photo's luma detail loss and artifacts
 * are a larger share of its errors (their colour accuracy keeps the colour photos' scale, and reads
 * high: there is no colour to lose).
 * Fitted by `deno run -A bench/subscore-calibration.ts` (ADR 026) on the public corpus (.corpus/A: its 23
 * colour photos, and a gray copy of each plus its grayscale photo), compressed by compressImage with MozJPEG
 * and jpegli at qualities 5-95: 550 colour and 601 grayscale results. Least squares, in word bands, between
 * each sub-score and the overall score. At least one sub-score's word is then within one band of the
 * overall's on 1149 of the 1151 results (colour 548/550, grayscale 601/601); before, on 242 (21%), the
 * sub-scores sitting 28-41 points above the overall score on average. Old → new, colour photos:
 * sharpness 99 → 93.6, 97 → 81.0, 95 → 68.6; artifacts 99 → 96.2, 95 → 81.1, 90 → 62.6;
 * colour 99 → 97.4, 95 → 87.0, 90 → 74.1.
 */
export const SUB_SCORE_ERROR_SCALE: Readonly<Record<"color" | "grayscale", Readonly<Record<SubScore, number>>>> = {
  color: { sharpness: 19.09, artifacts: 8.42, colorAccuracy: 4.63 },
  grayscale: { sharpness: 13.97, artifacts: 60.07, colorAccuracy: 4.63 },
};

/**
 * The three sub-scores of one comparison, on SSIMULACRA 2's scale. Calibrated (SUB_SCORE_ERROR_SCALE), they agree with the overall
 * score's word on 1149 of the corpus's 1151 results; on a photo whose faults are spread unusually evenly
 * all three can still sit two words from the overall's. Then all three errors are scaled by one common
 * factor, the smallest that brings the nearest within one word (as shown, rounded or not): their order and
 * ratios, which tell which fault dominates, are kept; only the level is pulled to the overall's.
 */
export function subScores(terms: QualityTerms, grayscale = false): Record<SubScore, number> {
  const scale = SUB_SCORE_ERROR_SCALE[grayscale ? "grayscale" : "color"];
  const errors = KINDS.map((kind) => scale[kind] * terms[kind]);
  const at = (factor: number) => errors.map((e) => scoreOf(factor * e));
  const overall = scoreOf(terms.total);
  let factor = 1;
  if (!nearOverall(at(1), overall)) {
    // At `full`, the sub-score nearest the overall (in error ratio) equals it: near by definition.
    const nearest = errors.reduce((a, b) =>
      Math.abs(Math.log(b / terms.total)) < Math.abs(Math.log(a / terms.total)) ? b : a
    );
    const full = nearest > 0 ? terms.total / nearest : 1;
    let lo = 0, hi = 1; // as exponents of `full`: lo is not near, hi is
    for (let i = 0; i < 40; i++) {
      const mid = (lo + hi) / 2;
      if (nearOverall(at(full ** mid), overall)) hi = mid;
      else lo = mid;
    }
    factor = full ** hi;
  }
  const scores = at(factor);
  return Object.fromEntries(KINDS.map((kind, i) => [kind, scores[i]!])) as Record<SubScore, number>;
}

const KINDS = Object.keys(SUB_SCORES) as SubScore[];

/** Whether one sub-score's word is within one band of the overall's: exact, as reported (0.1) and as shown (1). */
function nearOverall(subs: number[], overall: number): boolean {
  return [Infinity, 1, 0].every((digits) => {
    const band = scoreWord(round(overall, digits)).band;
    return subs.some((s) => Math.abs(scoreWord(round(s, digits)).band - band) <= 1);
  });
}

/** The report of an output against its original; `grayscale`: the original has no colour (MeasurePlanes). */
export function compareQuality(original: XybPyramid, output: XybPyramid, grayscale = false): QualityReport {
  const { score: raw, norms } = compareXyb(original, output);
  const score = clamp(raw);
  const subs = subScores(qualityTerms(norms), grayscale);
  return {
    ssimulacra2: round(raw, 2),
    score: round(score, 1),
    sharpness: round(subs.sharpness, 1),
    artifacts: round(subs.artifacts, 1),
    colorAccuracy: round(subs.colorAccuracy, 1),
    overall: round(score, 1),
  };
}

const clamp = (v: number) => Math.min(100, Math.max(0, v));
const scoreOf = (errors: number) => clamp(scoreFromWeightedSum(errors));
const round = (v: number, digits: number) => digits === Infinity ? v : Math.round(v * 10 ** digits) / 10 ** digits;

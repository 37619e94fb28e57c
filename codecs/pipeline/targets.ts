/** Target goals (Premium) expressed as searches over the quality setting. */
import type { ChromaSubsampling, Target } from "../../contract/settings.ts";
import { PRIOR_SLOPE, type ScoreSearch, type SearchSpec } from "./target-search.ts";
import type { Codec } from "../codec.ts";

import { AUTO_SCORE_THRESHOLD } from "../../contract/settings.ts";
export { AUTO_SCORE_THRESHOLD };
export const MAX_TARGET_ENCODES = 7;
/** Score goals: at most this many full-size encode + measure probes. */
export const MAX_SCORE_PROBES = 4;
/**
 * A passing probe this close above the goal ends the search; otherwise the next probe tries a lower quality
 * until the passing and failing probes are adjacent (or the probes run out). Half a point, under one quality
 * step near 80 (0.5-1.2 points a step): on the corpus it took 2.0 full probes a photo on average, against
 * 1.8 with 1 point (2 points from the second probe on, as before), for 0.5% fewer bytes; the metric's speed
 * (ADR 015's FMAs as relaxed SIMD) pays for it.
 */
export const SCORE_SLACK = 0.5;
/** Probes aim this far above the goal, so a prediction a little off still passes. */
export const SCORE_AIM_ABOVE = 0.25;
/**
 * Once a full probe has measured the photo's offset from its mosaic, the next probes aim this far above the
 * goal: on the public corpus, a calibrated prediction one step from a full probe was within 0.2 points of the
 * step's score on 7 of 9 photos (0.30 and 0.79 the others). There, aims of 0.25, 0.15, 0.1, 0.05 and 0 above the
 * goal took 55, 52, 50, 51 and 50 full probes for the 24 photos, for 0, 0, +0.03%, +0.02% and +0.02% bytes.
 */
export const SCORE_CALIBRATED_AIM_ABOVE = 0.1;

export function searchSpecFor(target: Target & { kind: "size" }): SearchSpec {
  return {
    lo: 1,
    hi: 100,
    maxProbes: MAX_TARGET_ENCODES,
    want: "highest",
    passes: (p) => p.size <= target.kb * 1024,
    better: (a, b) => a.size < b.size,
  };
}

/**
 * Our SSIMULACRA 2 over-reads the reference tool's by at most 0.05 near the goal (public corpus: the 7
 * reference pairs scoring 74-86 and the 24 auto outputs at 80.3-81.3; +0.107 at most over all 84 pairs,
 * 44-96, the larger ones at 88-90), so a goal is searched this much higher and an output we pass also passes
 * the reference. The margin is paid in bytes wherever a photo's floor lands inside it: a quality step costs
 * 3-6% near 80 and up to 24% above q90.
 */
export const AGREEMENT_MARGIN = 0.08;

export function scoreGoal(target: Target): number | null {
  return target.kind === "auto" ? AUTO_SCORE_THRESHOLD : target.kind === "quality" ? target.score : null;
}

/**
 * Chroma subsampling for a score goal: 4:2:0 halves the chroma resolution, an
 * error no quality setting removes, so at high goals full chroma (4:4:4) reaches
 * the score with fewer bytes; below, 4:2:0's saving wins (measured at 80 on the
 * corpus's 4:2:2 photos: Kleiber needs 2.9 MB at 4:2:0 and about 3.3 MB at 4:4:4).
 * A source already stored at 4:2:0 has no finer chroma to keep.
 */
export const FULL_CHROMA_FROM_SCORE = 88;
export function chromaForGoal(goal: number, grayscale: boolean, source: string | null = null): ChromaSubsampling {
  return grayscale || source === "4:2:0" || goal < FULL_CHROMA_FROM_SCORE ? "4:2:0" : "4:4:4";
}

/**
 * In a web set, a passing probe of an encoder at least this slow (AVIF, 620 ms/MP) ends its search within
 * SET_SLOW_SLACK of the goal: a set makes every width in every format, and an AVIF probe at 2,560 px costs
 * 3.5-8 s to encode and about 1 s to decode and measure, where a JPEG one costs half a second in all. Two
 * points, not one (ADR 044): on the four set photos of each corpus, in process, the sets took 11% (public) and
 * 28% (validation) less time for 2.1% and 1.6% more AVIF bytes; on auto every file stays in 80-83.
 */
export const SET_SLOW_ENCODER_MS_PER_MP = 300;
export const SET_SLOW_SLACK = 2;

/**
 * A score search for one codec: its own quality → score curve gives the first probe. `inSet`: one file of a
 * web set: slow encoders take the slack above, and every encoder ends at its first passing probe within its
 * slack (no step down a flat curve: for AVIF a 2,560 px probe of seconds that failed 5 times of 7 on the
 * public set photos; for JPEG, the set's fallback for browsers without AVIF, 0-1.8% of its bytes for 2-9% of
 * the set's time, ADR 044), and every encoder steps by its own curve's slope (AVIF 0.5 a step near 80, not
 * MozJPEG's 0.8: a set's narrower widths start from the quality a wider one needed, with no mosaic, and
 * overshot by a step with the prior). Single images keep the prior slope and the step down, so their searches
 * are unchanged. `outOfReachEnds`: see ScoreSearch.
 */
export function scoreSearchFor(
  codec: Codec,
  goal: number,
  chroma: ChromaSubsampling,
  { inSet = false, outOfReachEnds = false }: { inSet?: boolean; outOfReachEnds?: boolean } = {},
): ScoreSearch {
  const slow = inSet && codec.encodeMsPerMp >= SET_SLOW_ENCODER_MS_PER_MP;
  const start = codec.predictQuality(goal, chroma);
  return {
    goal,
    slack: slow ? SET_SLOW_SLACK : SCORE_SLACK,
    stepDownWhenFlat: !inSet,
    slope: inSet ? 1 / Math.max(0.25, codec.predictQuality(goal + 1, chroma) - start) : PRIOR_SLOPE,
    aimAbove: SCORE_AIM_ABOVE,
    calibratedAimAbove: SCORE_CALIBRATED_AIM_ABOVE,
    start,
    lo: 20,
    hi: 100,
    maxProbes: MAX_SCORE_PROBES,
    setting: codec.encoderSetting,
    outOfReachEnds,
  };
}

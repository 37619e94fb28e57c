/** Target goals (Premium) expressed as quality searches. */
import type { Target } from "../../contract/settings.ts";
import type { SearchSpec } from "./target-search.ts";

/**
 * "auto" keeps the multi-scale luma SSIM at or above 0.99 (score 90): the
 * visually-lossless threshold (justified in codecs/README.md).
 */
export const AUTO_SCORE_THRESHOLD = 90;
export const MAX_TARGET_ENCODES = 7;

export function searchSpecFor(target: Target): SearchSpec {
  switch (target.kind) {
    case "size":
      return {
        lo: 1,
        hi: 100,
        maxProbes: MAX_TARGET_ENCODES,
        want: "highest",
        passes: (p) => p.size <= target.kb * 1024,
        better: (a, b) => a.size < b.size,
      };
    case "quality":
      return scoreSpec(target.score, 1);
    case "auto":
      // Below 30 nothing is visually lossless; the narrower range needs fewer encodes.
      return scoreSpec(AUTO_SCORE_THRESHOLD, 30);
  }
}

function scoreSpec(score: number, lo: number): SearchSpec {
  return {
    lo,
    hi: 100,
    maxProbes: MAX_TARGET_ENCODES,
    want: "lowest",
    passes: (p) => p.score >= score,
    better: (a, b) => a.score > b.score,
  };
}

export function needsScore(target: Target): boolean {
  return target.kind !== "size";
}

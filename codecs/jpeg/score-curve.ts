/** MozJPEG's quality → SSIMULACRA 2 behaviour, for score goals (codecs/pipeline/targets.ts). */
import type { ChromaSubsampling } from "../../contract/settings.ts";
import type { QuantTable } from "./meta.ts";

/**
 * Score goals encode with MozJPEG's table preset 2 (tuned for MS-SSIM) instead of the default 3: at the
 * lowest quality scoring 80.25, found by bisection on full images, it needed fewer bytes on every photo
 * measured (Storm 71 vs 86 KB, Aqua 126 vs 140, friends 309 vs 331, FallenLeaf 276 vs 280, Kleiber about
 * 2% less). Presets 6 and 7 won only on Storm (6: 67 KB) and lost by 4-20% elsewhere, so choosing per
 * photo would not pay for its probes.
 */
export const SCORE_SEARCH_TABLE: QuantTable = 2;

/**
 * The first quality to probe for a goal: MozJPEG's tables at quality q score
 * about 81 at q80 with 4:2:0 (median of photos), gaining about 0.8 point per
 * step there; with 4:4:4 about 89 at q90.
 */
export function predictQuality(goal: number, chroma: ChromaSubsampling): number {
  return chroma === "4:4:4" ? 90 + (goal + 1 - 89) / 0.6 : 80 + (goal + 1 - 81) / 0.8;
}

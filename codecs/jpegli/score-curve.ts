/** jpegli's quality → SSIMULACRA 2 behaviour, for score goals (codecs/pipeline/targets.ts). */
import type { ChromaSubsampling } from "../../contract/settings.ts";

/**
 * The first quality to probe for a goal. Measured on the public corpus (4:2:0, adaptive quantisation on):
 * q80 scores 82.4 (median of the colour photos; 77.8-87.2), gaining about 0.65 point a step between q75
 * and q80, so jpegli reaches a score about two steps lower than MozJPEG. 4:4:4 (goals from 88): as MozJPEG.
 */
export function predictQuality(goal: number, chroma: ChromaSubsampling): number {
  return chroma === "4:4:4" ? 90 + (goal + 1 - 89) / 0.6 : 80 + (goal + 1 - 82.4) / 0.65;
}

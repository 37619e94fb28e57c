/** libavif's quality → SSIMULACRA 2 behaviour at the server's speed, for score goals (codecs/pipeline/targets.ts). */
import type { ChromaSubsampling } from "../../contract/settings.ts";

/**
 * The first quality to probe for a goal, aiming a point above it as MozJPEG's curve does. Measured at speed 7
 * on the public corpus (engine metric, bisection; codecs/README.md, "AVIF"): at 4:2:0 q77 scores 80.4 (median
 * of 8 colour photos; 76.0-82.4), gaining about 0.5 point a step near 80 (0.4-0.6); the photos' floors for
 * 80.25 lie at q73-84. At 4:4:4 (goals from 88) q90 scores 88.8 (86.4-90.2), about 0.6 a step below it and 0.3
 * above. Grey photos score higher at a quality (Grey: 80 at q54): the mosaic's readings correct the start.
 */
export function predictQuality(goal: number, chroma: ChromaSubsampling): number {
  return chroma === "4:4:4" ? 90 + (goal + 1 - 88.8) / 0.6 : 77 + (goal + 1 - 80.4) / 0.5;
}

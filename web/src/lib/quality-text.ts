import type { Target } from "../../../contract/settings.ts";
import { scoreWord } from "../../../contract/score-words.ts";

/** How the quality of a set of settings reads: "Quality 80", "Target 200 KB", "Target score 85 (Excellent)", "Auto quality". */
export function qualityText(quality: number, target: Target | null): string {
  if (target === null) return `Quality ${quality}`;
  if (target.kind === "size") return `Target ${target.kb} KB`;
  if (target.kind === "quality") return `Target score ${target.score} (${scoreWord(target.score).word})`;
  return "Auto quality";
}

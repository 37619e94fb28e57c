import { Link } from "wouter";
import { SCORE_BANDS, SCORE_NOTE_HREF, type ScoreTone, type ScoreWord as Word } from "../../../contract/score-words.ts";
import { cn } from "../lib/cn.ts";

/** Text colours of the score tones (contract/score-words.ts): green, amber, red. */
export const TONE_TEXT: Record<ScoreTone, string> = {
  good: "text-green-700",
  fair: "text-amber-700",
  poor: "text-red-700",
};

/** Tile colours of the score tones, for the Compare panel's scores. */
export const TONE_TILE: Record<ScoreTone, string> = {
  good: "bg-green-50 text-green-800 border-green-200",
  fair: "bg-amber-50 text-amber-900 border-amber-200",
  poor: "bg-red-50 text-red-800 border-red-200",
};

/**
 * A score's word, as text that links to what the words mean (the About page's "scores" section);
 * its title says what this word means.
 */
export function ScoreWordLink({ score, className }: { score: Word; className?: string }) {
  const meaning = SCORE_BANDS[score.band]!.meaning;
  return (
    <Link
      href={SCORE_NOTE_HREF}
      title={`${score.word}: ${meaning}. What the scores mean`}
      className={cn("underline decoration-dotted underline-offset-2 hover:decoration-solid", className)}
      data-testid="score-word"
    >
      {score.word}
    </Link>
  );
}

/**
 * What a measured score is called and coloured, on SSIMULACRA 2's own scale (ADR 026): the one table
 * every place that shows a score word reads (job cards, Compare, the batch summary and its warnings,
 * and any server or API text). The spec's bands (85 good, 70 fair) were written for an estimate; our
 * scores are SSIMULACRA 2, where 80 already means "not noticeable side by side at 1:1".
 */
import { paths } from "./routes.ts";

export type ScoreTone = "good" | "fair" | "poor";

/** The words, best first: a score gets the first whose `min` it reaches. */
export const SCORE_BANDS = [
  { min: 90, word: "Lossless", meaning: "no visible difference, even flicking between the two" },
  { min: 85, word: "Excellent", meaning: "a difference only a trained eye finds, flicking between the two" },
  { min: 80, word: "Very Good", meaning: "not noticeable side by side at full size" },
  { min: 70, word: "Good", meaning: "small differences on a close look at full size" },
  { min: 50, word: "Fair", meaning: "visible differences at full size, fine when scaled down" },
  { min: 30, word: "Poor", meaning: "clearly visible artefacts" },
  { min: -Infinity, word: "Very Poor", meaning: "heavily degraded" },
] as const;

export type ScoreWordText = (typeof SCORE_BANDS)[number]["word"];

/** The colours, best first: green from 80 (the "auto" target), amber from 65, red below. */
export const SCORE_TONES = [
  { min: 80, tone: "good" },
  { min: 65, tone: "fair" },
  { min: -Infinity, tone: "poor" },
] as const satisfies readonly { min: number; tone: ScoreTone }[];

export interface ScoreWord {
  word: ScoreWordText;
  tone: ScoreTone;
  /** Index in SCORE_BANDS: 0 = Lossless … 6 = Very Poor. */
  band: number;
}

/** The word, colour and band of a score (0-100, higher is better), taken exactly as given. */
export function scoreWord(score: number): ScoreWord {
  // NaN reaches no band but the last.
  const band = SCORE_BANDS.findIndex((b) => score >= b.min);
  const i = band === -1 ? SCORE_BANDS.length - 1 : band;
  const tone = SCORE_TONES.find((t) => score >= t.min)?.tone ?? "poor";
  return { word: SCORE_BANDS[i]!.word, tone, band: i };
}

/** The lowest score with the given word. */
export const scoreWordMin = (word: ScoreWordText): number => SCORE_BANDS.find((b) => b.word === word)!.min;

/** The lowest score that is not red: below it, a result deserves a look before it is used. */
export const REVIEW_BELOW = SCORE_TONES[1].min;

/**
 * A score as it is shown: the whole number and the word of that number (so "90" never reads
 * "Excellent" because the score was 89.6).
 */
export function shownScore(score: number): ScoreWord & { value: number } {
  const value = Math.round(score);
  return { value, ...scoreWord(value) };
}

/** Where the words are explained (a section of the About page). */
export const SCORE_NOTE_ID = "scores";
export const SCORE_NOTE_HREF = `${paths.about}#${SCORE_NOTE_ID}`;

const bandText = (b: (typeof SCORE_BANDS)[number], i: number) =>
  i === SCORE_BANDS.length - 1 ? `below ${SCORE_BANDS[i - 1]!.min} ${b.word}` : `${b.min}+ ${b.word}`;

/** The scale in one paragraph, for a tooltip or any text that states it (the About page shows it as a table). */
export const SCORE_SCALE_NOTE =
  "Scores compare the compressed image with the original using SSIMULACRA 2, a published perceptual metric " +
  `(100 = identical): ${SCORE_BANDS.map(bandText).join(", ")}. ` +
  `Green from ${SCORE_TONES[0].min}, amber from ${SCORE_TONES[1].min}, red below. ` +
  "Sharpness, colour accuracy and artifacts use the same scale: each is the score the image would get if all " +
  "its faults were of that kind.";

/** Score words on SSIMULACRA 2's scale (contract/score-words.ts, ADR 026), and the texts that use them. */
import assert from "node:assert/strict";
import {
  REVIEW_BELOW,
  SCORE_BANDS,
  SCORE_NOTE_HREF,
  SCORE_SCALE_NOTE,
  scoreWord,
  scoreWordMin,
  shownScore,
} from "../../contract/score-words.ts";
import { DEFAULT_SAVED_SETTINGS } from "../../contract/settings.ts";
import { type Job, sizeTargetNote } from "../../contract/jobs.ts";
import { jobWarning, savingsText } from "../../web/src/lib/review.ts";
import { settingsSummary } from "../../web/src/features/compressor/lib/settings-summary.ts";

Deno.test("scoreWord: every boundary of the words and the colours", () => {
  const cases: [number, string, string, number][] = [
    [100, "Lossless", "good", 0],
    [90, "Lossless", "good", 0],
    [89.99, "Excellent", "good", 1],
    [85, "Excellent", "good", 1],
    [84.99, "Very Good", "good", 2],
    [80, "Very Good", "good", 2],
    [79.99, "Good", "fair", 3],
    [70, "Good", "fair", 3],
    [69.99, "Fair", "fair", 4],
    [65, "Fair", "fair", 4],
    [64.99, "Fair", "poor", 4],
    [50, "Fair", "poor", 4],
    [49.99, "Poor", "poor", 5],
    [30, "Poor", "poor", 5],
    [29.99, "Very Poor", "poor", 6],
    [0, "Very Poor", "poor", 6],
    [-12, "Very Poor", "poor", 6],
    [NaN, "Very Poor", "poor", 6],
  ];
  for (const [score, word, tone, band] of cases) {
    assert.deepEqual(scoreWord(score), { word, tone, band }, String(score));
  }
});

Deno.test("the table is data, best first, and the note states it", () => {
  assert.deepEqual(SCORE_BANDS.map((b) => b.min), [90, 85, 80, 70, 50, 30, -Infinity]);
  assert.equal(scoreWordMin("Fair"), 50);
  assert.equal(REVIEW_BELOW, 65);
  assert.equal(SCORE_NOTE_HREF, "/about#scores");
  for (const b of SCORE_BANDS) assert.ok(SCORE_SCALE_NOTE.includes(b.word), b.word);
  assert.match(
    SCORE_SCALE_NOTE,
    /90\+ Lossless, 85\+ Excellent, 80\+ Very Good, 70\+ Good, 50\+ Fair, 30\+ Poor, below 30 Very Poor/,
  );
});

Deno.test("a shown score's word is the word of the number shown", () => {
  assert.deepEqual(shownScore(89.6), { value: 90, word: "Lossless", tone: "good", band: 0 });
  assert.deepEqual(shownScore(89.4), { value: 89, word: "Excellent", tone: "good", band: 1 });
  assert.deepEqual(shownScore(80.4), { value: 80, word: "Very Good", tone: "good", band: 2 });
});

const completed = (overall: number) =>
  ({
    status: "completed",
    originalSize: 1000,
    compressedSize: 500,
    keptOriginal: false,
    quality: 80,
    settings: DEFAULT_SAVED_SETTINGS,
    scores: {
      ssimulacra2: overall,
      score: overall,
      sharpness: overall,
      colorAccuracy: overall,
      artifacts: overall,
      overall,
    },
  }) as Pick<Job, "status" | "originalSize" | "compressedSize" | "keptOriginal" | "quality" | "settings" | "scores">;

Deno.test("texts use the words: summary, warning, settings summary, size-target note", () => {
  // Auto lands at 80-83: green and "Very Good", no warning (it was amber "fair" under the spec's 85).
  assert.equal(jobWarning(completed(80.6)), null);
  assert.equal(jobWarning(completed(65)), null);
  assert.equal(jobWarning(completed(62)), "Score 62 (Fair) is below 65: check it in Compare");
  assert.equal(
    savingsText({ images: 2, originalBytes: 2000, savedBytes: 1000, percent: 50, lowestScore: 81.2 }),
    "Saved 1000 B (50%) across 2 images · lowest score 81 (Very Good)",
  );
  const target = (score: number) => ({ ...DEFAULT_SAVED_SETTINGS, target: { kind: "quality" as const, score } });
  assert.equal(settingsSummary(target(85), true), "Target score 85 (Excellent) · JPEG · metadata stripped");
  const size = { ...DEFAULT_SAVED_SETTINGS, target: { kind: "size" as const, kb: 50 } };
  assert.equal(
    sizeTargetNote(size, completed(42).scores),
    "size target reached at a quality score of 42, below 50: Poor, visibly degraded",
  );
});

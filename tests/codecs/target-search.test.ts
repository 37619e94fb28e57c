/** The score search (predict, then verify) on synthetic score curves, and auto on fixtures. */
import assert from "node:assert/strict";
import { type Probe, searchScore } from "../../codecs/pipeline/target-search.ts";
import { chromaForGoal, predictQuality, scoreSearchFor } from "../../codecs/pipeline/targets.ts";
import { compressImage } from "../../codecs/pipeline/compress.ts";
import { fixture, settings } from "./helpers.ts";
import { sizeTargetNote, withSsimulacra2 } from "../../contract/jobs.ts";

/** A photo whose score rises `slope` points per quality step and reaches `at80` at q80. */
function curve(at80: number, slope: number) {
  const probed: number[] = [];
  const probe = (quality: number): Promise<Probe> => {
    probed.push(quality);
    const score = Math.min(100, at80 + slope * (quality - 80) - 0.004 * (quality - 80) ** 2);
    return Promise.resolve({ quality, size: quality * 1000, score });
  };
  return { probe, probed };
}

Deno.test("the score search lands within 2 points above the goal in at most 4 probes", async () => {
  for (const [at80, slope] of [[81, 0.8], [70, 0.5], [90, 1.2], [76, 0.3], [85, 2]] as const) {
    for (const goal of [50, 80, 90]) {
      const { probe, probed } = curve(at80, slope);
      const { chosen, passed } = await searchScore(scoreSearchFor(goal, chromaForGoal(goal, false)), probe);
      assert.ok(probed.length <= 4, `${at80}/${slope} goal ${goal}: ${probed}`);
      if (!passed) continue;
      assert.ok(chosen.score >= goal, `${at80}/${slope} goal ${goal}: ${chosen.score}`);
      // Adjacent qualities may straddle the slack window when the slope is steep.
      assert.ok(chosen.score <= goal + Math.max(2, slope * 1.1), `${at80}/${slope} goal ${goal}: ${chosen.score}`);
    }
  }
});

Deno.test("the prediction starts near q80 for auto and uses 4:4:4 only for high goals", () => {
  assert.ok(Math.abs(predictQuality(80, "4:2:0") - 80) <= 2);
  assert.equal(chromaForGoal(80, false), "4:2:0");
  assert.equal(chromaForGoal(90, false), "4:4:4");
  assert.equal(chromaForGoal(90, true), "4:2:0");
});

Deno.test("auto on fixtures scores at least 80 and not wastefully more", async () => {
  for (const name of ["base.jpg", "metadata-all.jpg", "progressive.jpg"]) {
    const result = await compressImage(new AbortController().signal, {
      bytes: await fixture(name),
      settings: settings({ target: { kind: "auto" } }),
      maxPixels: 50e6,
    });
    if (result.keptOriginal) continue;
    assert.ok(result.quality.score >= 80, `${name}: ${result.quality.score}`);
    assert.ok(result.quality.score <= 86, `${name}: ${result.quality.score} at q${result.chosenQuality}`);
  }
});

Deno.test("a size target warns below a score of 50, and older stored scores get ssimulacra2", () => {
  const scores = { ssimulacra2: 42, score: 42, sharpness: 60, colorAccuracy: 70, artifacts: 50, overall: 42 };
  const size = settings({ target: { kind: "size", kb: 10 } });
  assert.match(sizeTargetNote(size, scores)!, /quality score of 42, below 50/);
  assert.equal(sizeTargetNote(size, { ...scores, score: 50, overall: 50 }), null);
  assert.equal(sizeTargetNote(settings({ target: { kind: "auto" } }), scores), null);
  const { ssimulacra2: _, ...old } = scores;
  assert.equal(withSsimulacra2(old as typeof scores)!.ssimulacra2, 42);
});

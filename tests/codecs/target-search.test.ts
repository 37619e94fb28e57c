/** The score search (predict, then verify) on synthetic score curves, and auto on fixtures. */
import assert from "node:assert/strict";
import { OutOfReach, type Probe, searchScore } from "../../codecs/pipeline/target-search.ts";
import { chromaForGoal, scoreSearchFor } from "../../codecs/pipeline/targets.ts";
import { predictQuality, SCORE_SEARCH_TABLE } from "../../codecs/jpeg/score-curve.ts";
import { mozjpeg } from "../../codecs/jpeg/codec.ts";
import { decodeJpegPixels } from "../../codecs/jpeg/decode.ts";
import { encodeJpegPixels } from "../../codecs/jpeg/encode.ts";
import { mozJpegOptions } from "../../codecs/jpeg/options.ts";
import type { QuantTable } from "../../codecs/jpeg/meta.ts";
import { compressImage, newTimings } from "../../codecs/pipeline/compress.ts";
import { chooseEncoder, searchEncoders } from "../../codecs/pipeline/encoder-search.ts";
import type { Codec } from "../../codecs/codec.ts";
import { CODECS } from "../../codecs/registry.ts";
import { fixture, lumaQuantTable, settings } from "./helpers.ts";
import { sizeTargetNote, withSsimulacra2 } from "../../contract/jobs.ts";

/** A photo whose score rises `slope` points per quality step and reaches `at80` at q80. */
function curve(at80: number, slope: number) {
  const probed: Probe[] = [];
  const probe = (quality: number): Promise<Probe> => {
    const score = Math.min(100, at80 + slope * (quality - 80) - 0.004 * (quality - 80) ** 2);
    probed.push({ quality, size: quality * 1000, score });
    return Promise.resolve(probed.at(-1)!);
  };
  return { probe, probed };
}

/** Score of the synthetic curve at quality q (as `curve` computes it). */
const scoreAt = (at80: number, slope: number, q: number) =>
  Math.min(100, at80 + slope * (q - 80) - 0.004 * (q - 80) ** 2);

/**
 * The chosen probe passes and is within the slack above the goal or near the floor: at most one quality
 * step above it near 80, where searches start (a second probe that passes ends the search), three for
 * goals far from the start.
 */
function assertTight(chosen: Probe, goal: number, at80: number, slope: number, label: string) {
  assert.ok(chosen.score >= goal, `${label}: ${chosen.score}`);
  const steps = goal >= 75 && goal <= 85 ? 2 : 4;
  const nearFloor = scoreAt(at80, slope, chosen.quality - steps) < goal;
  assert.ok(
    nearFloor || chosen.score <= goal + 1,
    `${label}: q${chosen.quality} scores ${chosen.score}, off the floor`,
  );
}

const CURVES = [[81, 0.8], [70, 0.5], [90, 1.2], [76, 0.3], [85, 2]] as const;

/**
 * What a score search guarantees whatever its path: `passed` says whether any probe reached the goal; if one
 * did (and one can whenever q100 does, on these curves), the result passes, is the smallest passing probe and
 * is tight; if none can, the best effort is the highest quality allowed, reported as not passing.
 */
function assertOutcome(
  outcome: { chosen: Probe; passed: boolean; probes: number },
  probed: Probe[],
  spec: { goal: number; hi: number },
  at80: number,
  slope: number,
  label: string,
) {
  const { chosen, passed, probes } = outcome;
  const { goal } = spec;
  assert.equal(probes, probed.length, `${label}: the probe count`);
  assert.ok(probed.includes(chosen), `${label}: the result is one of the probes`);
  const passing = probed.filter((p) => p.score >= goal);
  assert.equal(passed, passing.length > 0, `${label}: passed says whether a probe reached the goal`);
  if (scoreAt(at80, slope, spec.hi) >= goal) {
    assert.ok(passed, `${label}: reachable, probed ${probed.map((p) => `q${p.quality}=${p.score.toFixed(1)}`)}`);
    const smallest = Math.min(...passing.map((p) => p.size));
    assert.equal(chosen.size, smallest, `${label}: the smallest passing probe, not q${chosen.quality}`);
    assertTight(chosen, goal, at80, slope, label);
  } else {
    assert.ok(!passed, `${label}: unreachable, yet reported passing`);
    assert.ok(chosen.score < goal, `${label}: ${chosen.score}`);
    assert.equal(chosen.quality, spec.hi, `${label}: the best effort is the highest quality`);
    assert.equal(chosen.score, Math.max(...probed.map((p) => p.score)), `${label}: the best-scoring probe`);
  }
}

Deno.test("without a proxy, the score search ends within a step of the floor or 1 point of the goal in at most 4 probes", async () => {
  let unreachable = 0;
  for (const [at80, slope] of CURVES) {
    for (const goal of [50, 80, 90]) {
      const { probe, probed } = curve(at80, slope);
      const spec = scoreSearchFor(mozjpeg, goal, chromaForGoal(goal, false));
      const outcome = await searchScore(spec, probe);
      const label = `${at80}/${slope} goal ${goal}`;
      assert.ok(probed.length <= 4, `${label}: ${probed.map((p) => p.quality)}`);
      assertOutcome(outcome, probed, spec, at80, slope, label);
      if (scoreAt(at80, slope, spec.hi) < goal) unreachable++;
    }
  }
  assert.equal(unreachable, 3, "the cases cover unreachable goals (70/0.5 at 80 and 90, 76/0.3 at 90)");
});

Deno.test("a calibrated proxy brings the search within a step of the floor in at most 3 full probes (4 to reach the floor), whatever its offset", async () => {
  let unreachable = 0;
  for (const [at80, slope] of CURVES) {
    for (const goal of [60, 80, 88]) {
      // The proxy reads 1.5-3.5 points high, its offset drifting with quality as measured on photos.
      for (const [offset, drift] of [[1.5, 0], [3.5, -0.1], [2.5, 0.05]] as const) {
        const { probe, probed } = curve(at80, slope);
        const proxied: number[] = [];
        const proxy = (q: number) => {
          proxied.push(q);
          return Promise.resolve(scoreAt(at80, slope, q) + offset + drift * (q - 80));
        };
        const spec = scoreSearchFor(mozjpeg, goal, chromaForGoal(goal, false));
        const outcome = await searchScore(spec, probe, proxy);
        const label = `${at80}/${slope} goal ${goal} offset ${offset}/${drift}`;
        assertOutcome(outcome, probed, spec, at80, slope, label);
        // A fourth probe only to land on the floor itself (the offset, interpolated between two bracketing
        // probes, predicted the step below passes).
        const onFloor = scoreAt(at80, slope, outcome.chosen.quality - 1) < goal;
        assert.ok(
          outcome.probes <= 3 || (outcome.probes === 4 && onFloor),
          `${label}: full probes at ${probed.map((p) => p.quality)}`,
        );
        // Cheap probes, but not unbounded: interpolation inside the bracket, not bisection (and two exact readings
        // where a passing probe asks whether the curve is flat below it).
        assert.ok(proxied.length <= 12, `${label}: ${proxied.length} proxy probes`);
        if (scoreAt(at80, slope, spec.hi) < goal) unreachable++;
      }
    }
  }
  assert.equal(unreachable, 9, "the cases cover unreachable goals (70/0.5 at 80 and 88, 76/0.3 at 88)");
});

Deno.test("a mosaic reading below its photo does not send the first probe to the highest quality", async () => {
  // The full image reads 3 points above its mosaic (the median photo reads 1.8 below): with the median offset
  // no quality reaches a goal of 91 on the mosaic.
  const { probe, probed } = curve(81, 0.8);
  const proxy = (q: number) => Promise.resolve(scoreAt(81, 0.8, q) - 3);
  const spec = scoreSearchFor(mozjpeg, 91, "4:4:4");
  const outcome = await searchScore(spec, probe, proxy);
  assert.ok(probed[0]!.quality < spec.hi, `first probe at q${probed[0]!.quality}`);
  assertOutcome(outcome, probed, spec, 81, 0.8, "reads low");
});

Deno.test("a goal the mosaic reads out of reach at every quality ends the search unprobed, when another setting is left", async () => {
  // The mosaic tops out at 75: even the most favourable offset measured (+2.3) leaves it under a goal of 80.
  const proxy = (q: number) => Promise.resolve(Math.min(75, 60 + q / 5));
  const { probe, probed } = curve(70, 0.5);
  const spec = scoreSearchFor(mozjpeg, 80, "4:2:0", { outOfReachEnds: true });
  await assert.rejects(searchScore(spec, probe, proxy), OutOfReach);
  assert.equal(probed.length, 0, "no full-size probe");
  // With nothing else to try, the search still probes, to deliver the best score it can.
  const last = await searchScore(scoreSearchFor(mozjpeg, 80, "4:2:0"), probe, proxy);
  assert.equal(last.passed, false);
  assert.ok(probed.length > 0);
  // Within reach with that offset: probed as before.
  const near = (q: number) => Promise.resolve(Math.min(78.5, 60 + q / 5));
  await searchScore(spec, curve(70, 0.5).probe, near);
});

Deno.test("a set's search ends at its first passing probe within its slack; a single image's steps down a flat curve", async () => {
  // A flat curve (0.3 a step) and a mosaic reading exactly the prior offset (1.8) below it: the first probe,
  // q80 at 80.3, passes a goal of 79.9 within the slack, and one step lower (80.0) still passes.
  const goal = 79.9;
  const qualities = async (codec: Codec, inSet: boolean, mosaicAbove = 1.8) => {
    const proxy = (q: number) => Promise.resolve(scoreAt(80.3, 0.3, q) + mosaicAbove);
    const { probe, probed } = curve(80.3, 0.3);
    const outcome = await searchScore(scoreSearchFor(codec, goal, "4:2:0", { inSet }), probe, proxy);
    assert.ok(outcome.passed && outcome.chosen.score >= goal);
    return probed.map((p) => p.quality);
  };
  // For AVIF one step down is the same quantiser (q79 and q80 make one file) and the next (q78) reads below the
  // goal: nothing to step to.
  assert.deepEqual(await qualities(CODECS.avif, false), [80]);
  assert.deepEqual(await qualities(CODECS.avif, true), [80], "a set's AVIF probe within its slack ends the search");
  // JPEG, a set's fallback for browsers without AVIF: its first passing probe within the slack is kept too.
  assert.deepEqual(await qualities(mozjpeg, false), [80, 79]);
  assert.deepEqual(await qualities(mozjpeg, true), [80]);
  // A mosaic reading 1.5 points lower than the prior offset says: the first probe lands 1.5-2 over the goal,
  // within a set's AVIF slack (2 points), not within a single image's (0.5).
  const high = await qualities(CODECS.avif, true, 0.3);
  assert.equal(high.length, 1, `probed q${high}`);
  assert.ok((await qualities(CODECS.avif, false, 0.3)).length > 1);
});

Deno.test("after a probe that lands high, the mosaic is read near the aim, not halfway down the qualities", async () => {
  // The mosaic reads 1 point over its photo where the prior expects 1.8: the first probe lands 1-1.5 points
  // high, and every reading taken so far passes with the measured offset (nothing below them is known). The
  // next readings follow their slope down to the aim: at most three, each near the floor (halving the
  // open bracket read q48 first, half a second at 1,920 px for AVIF).
  for (
    const [codec, at80, slope] of [[CODECS.avif, 82, 0.5], [mozjpeg, 82.5, 0.8], [CODECS.jpegli, 81.5, 0.3]] as const
  ) {
    const label = `${codec.id} ${at80}/${slope}`;
    const { probe, probed } = curve(at80, slope);
    const read: number[] = [];
    const proxy = (q: number) => {
      read.push(q);
      return Promise.resolve(scoreAt(at80, slope, q) + 1);
    };
    // The readings taken after the first full probe.
    let readFirst = -1;
    const spec = scoreSearchFor(codec, 80, "4:2:0");
    const outcome = await searchScore(spec, (q) => {
      if (readFirst < 0) readFirst = read.length;
      return probe(q);
    }, proxy);
    assert.ok(outcome.passed, label);
    const first = probed[0]!;
    assert.ok(first.score > 80 + spec.slack, `${label}: the first probe lands high (${first.score.toFixed(2)})`);
    let floor = outcome.chosen.quality;
    while (scoreAt(at80, slope, floor - 1) >= 80) floor--;
    const after = read.slice(readFirst);
    assert.ok(after.length > 0 && after.every((q) => q >= floor - 4), `${label}: read ${read} (floor q${floor})`);
    assert.ok(after.length <= 3, `${label}: read ${read}`);
  }
});

Deno.test("a passing probe over the slack ends the search when the calibrated mosaic puts the step below well under the goal", async () => {
  // The mosaic reads its photo 1.8 points high, as the prior expects: the first probe lands on the floor, q80,
  // over the slack. One step below reads 79.0 (2 points a step) or 79.85 (1.2): only the second is probed.
  for (const [at80, slope, probes] of [[81, 2, 1], [81.05, 1.2, 2]] as const) {
    const label = `${at80}/${slope}`;
    const { probe, probed } = curve(at80, slope);
    const proxy = (q: number) => Promise.resolve(scoreAt(at80, slope, q) + 1.8);
    const spec = scoreSearchFor(mozjpeg, 80, "4:2:0");
    const outcome = await searchScore(spec, probe, proxy);
    assert.equal(probed[0]!.quality, 80, `${label}: the first probe is the floor`);
    assert.ok(probed[0]!.score > 80 + spec.slack, `${label}: over the slack (${probed[0]!.score})`);
    assert.deepEqual(probed.map((p) => p.quality), [80, 79].slice(0, probes), label);
    assert.equal(outcome.chosen.quality, 80, label);
  }
});

Deno.test("once a full probe has calibrated the mosaic, the next probe aims nearer the goal", async () => {
  // The mosaic reads 1 point over its photo where the prior expects 1.8: the first probe lands high (q82,
  // 81.8). Calibrated, q80 reads 80.2: 0.2 over the goal, under the first aim (0.25 over) but over the
  // calibrated one, so the search probes it next and ends there, rather than at q81 first.
  const { probe, probed } = curve(80.2, 0.8);
  const proxy = (q: number) => Promise.resolve(scoreAt(80.2, 0.8, q) + 1);
  const spec = scoreSearchFor(mozjpeg, 80, "4:2:0");
  assert.ok(spec.calibratedAimAbove < 0.2 && spec.aimAbove > 0.2);
  const outcome = await searchScore(spec, probe, proxy);
  assert.deepEqual(probed.map((p) => p.quality), [82, 80]);
  assert.equal(outcome.chosen.quality, 80);
});

Deno.test("a set's search without a mosaic steps by its codec's own slope", async () => {
  // An AVIF-like curve, 0.5 a step: from a start scoring 2 points over the goal, MozJPEG's prior slope (0.8)
  // steps 2-3 qualities and lands high; AVIF's own (0.5) reaches the aim's window in one step.
  const avif = CODECS.avif;
  const goal = 80;
  const start = 85;
  const at80 = goal + 2.25 - 0.5 * (start - 80) + 0.004 * 25;
  const prior = curve(at80, 0.5);
  await searchScore({ ...scoreSearchFor(avif, goal, "4:2:0"), start }, prior.probe);
  const own = curve(at80, 0.5);
  const outcome = await searchScore({ ...scoreSearchFor(avif, goal, "4:2:0", { inSet: true }), start }, own.probe);
  assert.equal(own.probed.length, 2, `probed ${own.probed.map((p) => `q${p.quality}=${p.score.toFixed(2)}`)}`);
  assert.ok(outcome.chosen.score >= goal && outcome.chosen.score <= goal + 1, `${outcome.chosen.score}`);
  assert.ok(prior.probed.length > own.probed.length, `with the prior: ${prior.probed.map((p) => `q${p.quality}`)}`);
});

Deno.test("a search never probes two qualities of one encoder setting (AVIF's quantiser)", async () => {
  // AVIF-like: the file, and so its score, is the quantiser's (about 0.79 points a quantiser step; neighbouring
  // qualities often share one). Goals across the range, from the codec's own first guess and with no mosaic.
  const avif = CODECS.avif;
  const quantiser = avif.encoderSetting!;
  const search = async (at80: number, withSetting: boolean) => {
    const probed: number[] = [];
    const probe = (quality: number): Promise<Probe> => {
      probed.push(quality);
      const score = Math.min(100, at80 + 0.79 * (quantiser(80) - quantiser(quality)));
      return Promise.resolve({ quality, size: 1000 * (64 - quantiser(quality)), score });
    };
    const spec = scoreSearchFor(avif, 80.08, "4:4:4");
    const outcome = await searchScore(withSetting ? spec : { ...spec, setting: undefined }, probe);
    return { settings: probed.map(quantiser), outcome };
  };
  let repeated = 0, repeatedWithout = 0;
  for (let at80 = 70; at80 <= 90; at80 += 0.1) {
    const { settings, outcome } = await search(at80, true);
    assert.equal(new Set(settings).size, settings.length, `at80 ${at80.toFixed(1)}: quantisers ${settings}`);
    if (outcome.passed) assert.ok(outcome.chosen.score < 83, `at80 ${at80.toFixed(1)}: ${outcome.chosen.score}`);
    const without = (await search(at80, false)).settings;
    if (new Set(without).size < without.length) repeatedWithout++;
    if (new Set(settings).size < settings.length) repeated++;
  }
  assert.equal(repeated, 0);
  // The rule is what keeps them apart: by quality alone, some of these searches encode one quantiser twice.
  assert.ok(repeatedWithout > 0, "no search repeated a quantiser without the rule");
});

Deno.test("a search whose probes all passed more than 3 points over the goal takes one more, not a file over 83", async () => {
  // A08 (grey) at 1,280 px in AVIF, no mosaic: flat above the goal, steep below. Its measured scores, joined by
  // straight lines: the secant steps from the flat part overshoot to q24, and the fourth probe passes at 84.0.
  const points = [[1, 20], [24, 65.2], [47, 82.32], [52, 83.97], [65, 88.01], [78, 90.42], [100, 95]];
  const probed: Probe[] = [];
  const probe = (quality: number): Promise<Probe> => {
    const i = points.findIndex(([q]) => q! >= quality);
    const [q0, s0] = points[Math.max(0, i - 1)]!, [q1, s1] = points[i]!;
    const score = q1 === q0 ? s1! : s0! + ((s1! - s0!) * (quality - q0!)) / (q1! - q0!);
    probed.push({ quality, size: quality * 1000, score });
    return Promise.resolve(probed.at(-1)!);
  };
  const outcome = await searchScore(scoreSearchFor(CODECS.avif, 80.08, "4:2:0"), probe);
  const trace = probed.map((p) => `q${p.quality}=${p.score.toFixed(2)}`).join(" ");
  assert.equal(probed.length, 5, trace);
  assert.ok(outcome.passed && outcome.chosen.score >= 80.08 && outcome.chosen.score <= 83, trace);
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
    // None keeps its original (each scores 80.5-80.7 at q87-91), so the bounds below always apply.
    assert.equal(result.keptOriginal, false, `${name} kept its original`);
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

Deno.test("MozJPEG encodes for a score goal with its MS-SSIM table preset; with MozJPEG off, libjpeg's tables stay", async () => {
  const pixels = await decodeJpegPixels(await fixture("metadata-all.jpg"));
  const tableAt = async (quality: number, table: QuantTable) =>
    lumaQuantTable(await encodeJpegPixels(pixels, mozJpegOptions(settings(), quality, false, table)));
  const forGoal = { grayscale: false, scoreGoal: true };
  const goalBytes = await mozjpeg.encode(pixels, settings(), 77, forGoal);
  assert.deepEqual(lumaQuantTable(goalBytes), await tableAt(77, SCORE_SEARCH_TABLE));
  assert.notDeepEqual(lumaQuantTable(goalBytes), await tableAt(77, 3));
  const fixed = await mozjpeg.encode(pixels, settings(), 77, { ...forGoal, scoreGoal: false });
  assert.deepEqual(lumaQuantTable(fixed), await tableAt(77, 3));
  const off = await mozjpeg.encode(pixels, settings({ mozjpeg: false }), 77, forGoal);
  assert.deepEqual(lumaQuantTable(off), await tableAt(77, 0));
});

Deno.test("a score goal searches the fastest encoder unless another is predicted more than 3% smaller", () => {
  const fast = CODECS.jpegli, slow = CODECS.mozjpeg;
  assert.ok(fast.encodeMsPerMp < slow.encodeMsPerMp);
  const pick = (fastSize: number, slowSize: number) =>
    chooseEncoder([{ codec: slow, size: slowSize }, { codec: fast, size: fastSize }]).id;
  assert.equal(pick(100, 99), "jpegli", "1% smaller is within the mosaic's ranking error");
  assert.equal(pick(100, 96), "mozjpeg", "4% smaller is worth the slower probes");
  assert.equal(pick(90, 100), "jpegli");
});

Deno.test("without a mosaic, a search starts where a larger rendition landed (startAt), else at the encoder's prior", async () => {
  const pixels = await decodeJpegPixels(await fixture("base.jpg")); // 128×96: no mosaic
  const first = async (startAt?: Map<Codec, number>) => {
    const { probe, probed } = curve(84, 0.8);
    await searchEncoders([CODECS.jpegli], pixels, {
      signal: new AbortController().signal,
      goal: 80.08,
      chroma: "4:2:0",
      proxyEncode: () => Promise.reject(new Error("no mosaic at this size")),
      fullProbe: async (codec, q) => ({ codec, bytes: new Uint8Array(), report: null, ...await probe(q) }),
      timings: newTimings(0),
      startAt,
    });
    return probed[0]!.quality;
  };
  assert.equal(await first(), Math.round(CODECS.jpegli.predictQuality(80.08, "4:2:0")));
  assert.equal(await first(new Map([[CODECS.jpegli, 66]])), 66);
  assert.equal(await first(new Map([[CODECS.mozjpeg, 66]])), Math.round(CODECS.jpegli.predictQuality(80.08, "4:2:0")));
});

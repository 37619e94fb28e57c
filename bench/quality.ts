/**
 * The perceptual-quality figures (issue 13): SSIMULACRA 2 agreement with the reference tool and
 * its cost, then auto and equal-score bytes against libjpeg-turbo `cjpeg -quality 80 -optimize`,
 * auto's scores and its time against the fixed path. Part of `deno task bench`; alone:
 * `deno task bench quality`.
 */
import process from "node:process";
import { type CompressResult, createCodecPool, type MeasuredResult } from "../codecs/mod.ts";
import { decodeJpegPixels } from "../codecs/jpeg/decode.ts";
import { compareXyb, xybPyramid } from "../codecs/quality/ssimulacra2.ts";
import { measurePlanes } from "../codecs/quality/planes.ts";
import { compareQuality } from "../codecs/quality/report.ts";
import { agreementMargin, AUTO_SCORE_THRESHOLD } from "../codecs/pipeline/targets.ts";
import { type CompressSettings, DEFAULT_SETTINGS } from "../contract/settings.ts";
import { cjpeg, ensureCjpeg } from "./cjpeg.ts";
import type { CorpusImage } from "./corpus.ts";
import { readImage, referencePairs } from "./quality-reference.ts";
import { figure, median } from "./report.ts";

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Max and mean |Δ| against reference-scores.tsv over all 84 pairs, and the cost per comparison. */
export async function metricAgreement(): Promise<void> {
  const pairs = await referencePairs();
  const originals = new Map<string, ReturnType<typeof xybPyramid>>();
  let max = 0, total = 0, wallMs = 0, cpu = 0, prepMs = 0, megapixels = 0, prepMp = 0;
  for (const pair of pairs) {
    let original = originals.get(pair.originalPath);
    if (!original) {
      const image = await readImage(pair.originalPath);
      const t = performance.now();
      original = xybPyramid(image);
      prepMs += performance.now() - t;
      prepMp += (image.width * image.height) / 1e6;
      for (const stale of originals.values()) stale.free();
      originals.clear();
      originals.set(pair.originalPath, original);
    }
    const distorted = await readImage(pair.distortedPath);
    // One comparison: the output's pyramid and the maps (the original's pyramid is made once per job).
    const t = performance.now(), c = cpuMs();
    using pyramid = xybPyramid(distorted);
    const score = compareXyb(original, pyramid).score;
    wallMs += performance.now() - t;
    cpu += cpuMs() - c;
    megapixels += (distorted.width * distorted.height) / 1e6;
    const delta = Math.abs(score - pair.reference);
    max = Math.max(max, delta);
    total += delta;
  }
  figure("ssimulacra2_agreement_max_abs_delta", max, `points over ${pairs.length} pairs (target <= 1.0)`);
  figure("ssimulacra2_agreement_mean_abs_delta", total / pairs.length, "points (target <= 0.25)");
  figure("ssimulacra2_ms_per_mp", wallMs / megapixels, "ms/MP per comparison, one thread (target <= 80)");
  figure("ssimulacra2_cpu_ms_per_mp", cpu / megapixels, "CPU ms/MP per comparison");
  figure("ssimulacra2_original_prep_ms_per_mp", prepMs / prepMp, "ms/MP, once per job");
}

async function runPool(
  corpus: CorpusImage[],
  settings: (image: CorpusImage, i: number) => CompressSettings,
): Promise<MeasuredResult[]>;
async function runPool(
  corpus: CorpusImage[],
  first: (image: CorpusImage, i: number) => CompressSettings,
  then: (image: CorpusImage, i: number) => CompressSettings,
): Promise<[MeasuredResult, MeasuredResult][]>;
/** Each photo on a 2-worker pool; with `then`, a second job for the photo right after its first. */
async function runPool(
  corpus: CorpusImage[],
  first: (image: CorpusImage, i: number) => CompressSettings,
  then?: (image: CorpusImage, i: number) => CompressSettings,
) {
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 900_000, maxQueue: 1000, maxPixels: 100e6 });
  // Two lanes, one per worker, each taking the next photo: a photo's second job follows its first at once.
  const results: unknown[] = [];
  let next = 0;
  await Promise.all([0, 1].map(async () => {
    while (next < corpus.length) {
      const i = next++, image = corpus[i]!;
      const a = await pool.compress(image.bytes.slice(), first(image, i));
      results[i] = then ? [a, await pool.compress(image.bytes.slice(), then(image, i))] : a;
    }
  }));
  await pool.close();
  return results;
}

/**
 * Native MozJPEG's floor (our encoder at its default settings writes the same bytes, see native.ts): per
 * photo, the lowest quality whose output scores at least `goalOf(photo)`, found by bisection over every
 * quality, with MozJPEG's default table preset (score targets use preset 2).
 */
async function exactFloor(
  corpus: CorpusImage[],
  base: CompressSettings,
  goalOf: (i: number) => number,
): Promise<(CompressResult & { floorQuality: number })[]> {
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 900_000, maxQueue: 1000, maxPixels: 100e6 });
  try {
    return await Promise.all(corpus.map(async (image, i) => {
      const goal = goalOf(i);
      let lo = 30, hi = 100, best: (CompressResult & { floorQuality: number }) | null = null;
      while (lo <= hi) {
        const q = Math.floor((lo + hi) / 2);
        const r = await pool.compress(image.bytes.slice(), { ...base, quality: q });
        if (r.quality.ssimulacra2 >= goal) {
          best = { ...r, floorQuality: q };
          hi = q - 1;
        } else lo = q + 1;
      }
      return best ?? { ...await pool.compress(image.bytes.slice(), { ...base, quality: 100 }), floorQuality: 100 };
    }));
  } finally {
    await pool.close();
  }
}

async function scoreOf(original: Uint8Array, output: Uint8Array): Promise<number> {
  const a = measurePlanes(await decodeJpegPixels(original));
  const b = measurePlanes(await decodeJpegPixels(output), a.factor);
  try {
    return compareQuality(a.pyramid, b.pyramid).score;
  } finally {
    a.pyramid.free();
    b.pyramid.free();
  }
}

export async function autoAndBytes(corpus: CorpusImage[]): Promise<void> {
  await ensureCjpeg();
  const reference: { bytes: number; score: number }[] = [];
  for (const image of corpus) {
    const out = await cjpeg(image.bytes, 80, true);
    reference.push({ bytes: out.length, score: await scoreOf(image.bytes, out) });
  }
  const cjpegBytes = sum(reference.map((r) => r.bytes));
  figure("cjpeg_q80_optimize_total", cjpegBytes / 1024, "KiB");
  const cjpegScores = reference.map((r) => r.score);
  figure("cjpeg_q80_optimize_median_score", median(cjpegScores));

  // Progressive, as native MozJPEG's cjpeg defaults to (the product's default is sequential).
  const base: CompressSettings = { ...DEFAULT_SETTINGS, progressive: true };
  // Each photo's fixed and auto jobs run back to back, so their time ratio sees the same load.
  const paired = await runPool(corpus, () => base, () => ({ ...base, target: { kind: "auto" } }));
  const fixed = paired.map(([f]) => f), auto = paired.map(([, a]) => a);
  // Equal score: the engine's smallest output scoring at least what cjpeg q80 scored on that photo.
  const equal = await runPool(corpus, (_image, i) => ({
    ...base,
    target: { kind: "quality", score: Math.min(100, reference[i]!.score) },
  }));
  const autoGoal = AUTO_SCORE_THRESHOLD + agreementMargin(false);
  const floor = await exactFloor(corpus, base, () => autoGoal);
  // The same for equal score: each photo's cjpeg q80 score plus the margin, as the equal-score target searches.
  const equalFloor = await exactFloor(corpus, base, (i) => reference[i]!.score + agreementMargin(false));
  const bytes = (results: CompressResult[]) => sum(results.map((r) => r.compressedSize));
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
  for (const [i, image] of corpus.entries()) {
    const a = auto[i]!, e = equal[i]!, f = fixed[i]!, fl = floor[i]!, c = reference[i]!;
    console.log(
      `  ${image.name}: cjpeg ${c.bytes} B score ${c.score.toFixed(1)}` +
        ` | auto q${a.chosenQuality} ${a.compressedSize} B (${pct(a.compressedSize, c.bytes)}) score ` +
        `${a.quality.ssimulacra2.toFixed(2)}, ${a.timings.probes} probes + ${a.timings.proxyProbes} mosaic, ` +
        `${(a.timings.totalMs / f.timings.totalMs).toFixed(2)}x fixed` +
        ` | floor q${fl.floorQuality} ${fl.compressedSize} B` +
        ` | equal q${e.chosenQuality} ${e.compressedSize} B score ${e.quality.ssimulacra2.toFixed(2)}` +
        (e.keptOriginal ? " (the original is smaller than any output reaching it)" : ""),
    );
  }
  figure(
    "auto_bytes_vs_cjpeg_q80",
    (100 * bytes(auto)) / cjpegBytes,
    "% of cjpeg -quality 80 -optimize (target <= 78)",
  );
  figure(
    "native_mozjpeg_floor_bytes_vs_cjpeg_q80",
    (100 * bytes(floor)) / cjpegBytes,
    "% (MozJPEG defaults at the lowest quality scoring >= auto's goal, per photo, by bisection)",
  );
  figure("auto_bytes_vs_native_floor", (100 * bytes(auto)) / bytes(floor), "% (auto's search and table preset)");
  figure(
    "native_mozjpeg_equal_score_floor_vs_cjpeg_q80",
    (100 * bytes(equalFloor)) / cjpegBytes,
    "% (MozJPEG defaults at the lowest quality scoring >= each photo's cjpeg q80 score, by bisection)",
  );
  figure(
    "equal_score_bytes_vs_cjpeg_q80",
    (100 * bytes(equal)) / cjpegBytes,
    "% at each photo's cjpeg q80 score (target <= 88)",
  );
  const scores = auto.map((r) => r.quality.score);
  figure("auto_score_min", Math.min(...scores), `(target >= ${AUTO_SCORE_THRESHOLD})`);
  figure("auto_score_median", median(scores));
  figure("auto_score_max", Math.max(...scores));
  figure("auto_scores_at_most_83", `${scores.filter((s) => s <= 83).length}/${scores.length}`, "(target > 90%)");
  // Fixed = the same job's whole work: its result, then its (deferred) score.
  const ratios = corpus.map((_, i) => auto[i]!.timings.totalMs / fixed[i]!.timings.totalMs);
  figure("auto_vs_fixed_time_median", median(ratios), "x per photo, fixed with its score (target <= 2.5)");
  figure("auto_vs_fixed_time_max", Math.max(...ratios), "x per photo");
  figure("auto_vs_fixed_time_at_most_2_5", `${ratios.filter((r) => r <= 2.5).length}/${ratios.length}`, "photos");
  const resultOnly = corpus.map((_, i) =>
    auto[i]!.timings.totalMs / (fixed[i]!.timings.totalMs - fixed[i]!.timings.measureMs)
  );
  figure("auto_vs_fixed_result_time_median", median(resultOnly), "x per photo, against the fixed result alone");
  figure("auto_vs_fixed_result_time_max", Math.max(...resultOnly), "x per photo");
  figure("auto_probes_mean", sum(auto.map((r) => r.timings.probes)) / auto.length, "full-size probes");
  figure("auto_mosaic_probes_mean", sum(auto.map((r) => r.timings.proxyProbes)) / auto.length, "mosaic probes");
  figure(
    "auto_vs_fixed_time_total",
    sum(auto.map((r) => r.timings.totalMs)) / sum(fixed.map((r) => r.timings.totalMs)),
    "x (job time in the workers)",
  );
  figure("fixed_q80_median_score", median(fixed.map((r) => r.quality.score)));
  figure("fixed_q80_bytes_vs_cjpeg_q80", (100 * bytes(fixed)) / cjpegBytes, "%");
}

export async function qualityBench(corpus: CorpusImage[]): Promise<void> {
  await metricAgreement();
  await autoAndBytes(corpus);
}

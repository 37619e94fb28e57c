/**
 * The perceptual-quality figures (issue 13): SSIMULACRA 2 agreement with the reference tool and
 * its cost, then auto and equal-score bytes against libjpeg-turbo `cjpeg -quality 80 -optimize`,
 * auto's scores and its time against the fixed path. Part of `deno task bench`; alone:
 * `deno task bench quality`.
 */
import process from "node:process";
import { type CompressResult, createCodecPool } from "../codecs/mod.ts";
import { decodeJpegPixels } from "../codecs/jpeg/decode.ts";
import { compareXyb, xybPyramid } from "../codecs/quality/ssimulacra2.ts";
import { measurePlanes } from "../codecs/quality/planes.ts";
import { compareQuality } from "../codecs/quality/report.ts";
import { AUTO_SCORE_THRESHOLD } from "../codecs/pipeline/targets.ts";
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

async function runPool(corpus: CorpusImage[], settings: (image: CorpusImage, i: number) => CompressSettings) {
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 900_000, maxQueue: 1000, maxPixels: 100e6 });
  const results = await Promise.all(corpus.map((image, i) => pool.compress(image.bytes.slice(), settings(image, i))));
  await pool.close();
  return results;
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
  const fixed = await runPool(corpus, () => base);
  const auto = await runPool(corpus, () => ({ ...base, target: { kind: "auto" } }));
  // Equal score: the engine's smallest output scoring at least what cjpeg q80 scored on that photo.
  const equal = await runPool(corpus, (_image, i) => ({
    ...base,
    target: { kind: "quality", score: Math.min(100, reference[i]!.score) },
  }));
  const bytes = (results: CompressResult[]) => sum(results.map((r) => r.compressedSize));
  for (const [i, image] of corpus.entries()) {
    const a = auto[i]!, e = equal[i]!, f = fixed[i]!;
    console.log(
      `  ${image.name}: cjpeg ${reference[i]!.bytes} B score ${
        reference[i]!.score.toFixed(1)
      } | auto q${a.chosenQuality} ` +
        `${a.compressedSize} B (${((100 * a.compressedSize) / reference[i]!.bytes).toFixed(1)}%) score ` +
        `${a.quality.score.toFixed(1)} ${
          (a.timings.totalMs / f.timings.totalMs).toFixed(2)
        }x fixed | equal q${e.chosenQuality} ` +
        `${e.compressedSize} B score ${e.quality.score.toFixed(1)}`,
    );
  }
  figure(
    "auto_bytes_vs_cjpeg_q80",
    (100 * bytes(auto)) / cjpegBytes,
    "% of cjpeg -quality 80 -optimize (target <= 78)",
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
  const ratios = corpus.map((_, i) => auto[i]!.timings.totalMs / fixed[i]!.timings.totalMs);
  figure("auto_vs_fixed_time_median", median(ratios), "x per photo (target <= 2.5)");
  figure("auto_vs_fixed_time_max", Math.max(...ratios), "x per photo");
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

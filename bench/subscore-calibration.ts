/**
 * Calibrates the Compare panel's sub-scores (sharpness, artifacts, colour accuracy) onto SSIMULACRA 2's
 * scale (ADR 026), so that their words read like the overall score's.
 *
 *   deno run -A bench/subscore-calibration.ts            # compress, measure, fit, print (about 20 minutes)
 *   deno run -A bench/subscore-calibration.ts --cached   # fit again from the last run's samples
 *
 * Each corpus photo (.corpus/A, `BENCH_PHOTOS` as in bench/corpus.ts), and a gray copy of each colour one (a
 * one-component JPEG at q95: the corpus has a single grayscale photo), is compressed by the project's own
 * pipeline (codecs/pipeline/compress.ts, in-process) with both JPEG encoders at the qualities below. Each
 * output is measured against the upright original with the engine's SSIMULACRA 2, keeping the weighted
 * error sums of all terms and of each sub-score's terms (codecs/quality/report.ts `qualityTerms`).
 * A sub-score is `scoreFromWeightedSum(k · its errors)`: the error scale k is fitted per sub-score, for
 * colour and for grayscale originals apart, so that over the corpus the sub-score is as close as it can be
 * to the overall score, measured in word bands (least squares on a position that moves by 1 per band: 5
 * points count as much between 80 and 85 as 20 between 50 and 70, since words are what must agree). Being a
 * scale on the errors before the metric's own monotone curve, the mapping from the old sub-score to the new
 * one is monotone. The fitted k go into `SUB_SCORE_ERROR_SCALE` (codecs/quality/report.ts); a grayscale
 * photo's colour accuracy keeps the colour photos' k.
 *
 * Printed: each k with its distance to the overall score, the old → new mapping at a few points, and how
 * often at least one sub-score's word is within one band of the overall's (contract/score-words.ts), with
 * the raw sub-scores, the fitted k and the k in code. Samples are kept in .scratch/subscore-samples.tsv.
 */
import { compressImage } from "../codecs/pipeline/compress.ts";
import { inspectJpeg } from "../codecs/container/inspect.ts";
import { decodeJpegPixels, type RgbaImage } from "../codecs/jpeg/decode.ts";
import { encodeJpegPixels } from "../codecs/jpeg/encode.ts";
import { mozJpegOptions } from "../codecs/jpeg/options.ts";
import { applyOrientation } from "../codecs/image/orientation.ts";
import { measurePlanes } from "../codecs/quality/planes.ts";
import { compareXyb, scoreFromWeightedSum } from "../codecs/quality/ssimulacra2.ts";
import {
  type QualityTerms,
  qualityTerms,
  SUB_SCORE_ERROR_SCALE,
  type SubScore,
  subScores,
} from "../codecs/quality/report.ts";
import { DEFAULT_SETTINGS, ENCODERS } from "../contract/settings.ts";
import { SCORE_BANDS, scoreWord } from "../contract/score-words.ts";
import { loadCorpus } from "./corpus.ts";

const QUALITIES = [5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 85, 90, 95];
const KINDS: SubScore[] = ["sharpness", "artifacts", "colorAccuracy"];
const SAMPLES = new URL("../.scratch/subscore-samples.tsv", import.meta.url);
type Group = keyof typeof SUB_SCORE_ERROR_SCALE;

interface Sample {
  photo: string;
  grayscale: boolean;
  encoder: string;
  quality: number;
  terms: QualityTerms;
}

/** Every quality and encoder on one input, measured against its upright original. */
async function measureAll(photo: string, bytes: Uint8Array, upright: RgbaImage, samples: Sample[]): Promise<void> {
  const original = measurePlanes(upright);
  try {
    for (const encoder of ENCODERS) {
      for (const quality of QUALITIES) {
        const result = await compressImage(new AbortController().signal, {
          bytes,
          settings: { ...DEFAULT_SETTINGS, encoder, quality },
          maxPixels: Infinity,
          deferScore: true,
        });
        // A kept original scores 100 everywhere: nothing to calibrate on.
        if (result.keptOriginal) continue;
        const output = measurePlanes(await decodeJpegPixels(result.bytes), original.factor);
        try {
          const { norms } = compareXyb(original.pyramid, output.pyramid);
          samples.push({ photo, grayscale: original.grayscale, encoder, quality, terms: qualityTerms(norms) });
        } finally {
          output.pyramid.free();
        }
      }
    }
  } finally {
    original.pyramid.free();
  }
}

/** The photo in gray (BT.601 luma), as a one-component JPEG at q95: the corpus has one grayscale photo only. */
async function grayVariant(upright: RgbaImage): Promise<{ bytes: Uint8Array; pixels: RgbaImage }> {
  const data = new Uint8ClampedArray(upright.data.length);
  for (let p = 0; p < data.length; p += 4) {
    const y = 0.299 * upright.data[p]! + 0.587 * upright.data[p + 1]! + 0.114 * upright.data[p + 2]!;
    data[p] = data[p + 1] = data[p + 2] = y;
    data[p + 3] = 255;
  }
  const pixels = { data, width: upright.width, height: upright.height };
  const bytes = await encodeJpegPixels(pixels, mozJpegOptions(DEFAULT_SETTINGS, 95, true));
  return { bytes, pixels: await decodeJpegPixels(bytes) };
}

async function collect(): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const image of await loadCorpus()) {
    const info = inspectJpeg(image.bytes);
    // The pipeline measures the output against the original turned upright; so does this.
    const upright = applyOrientation(await decodeJpegPixels(image.bytes), info.orientation);
    await measureAll(image.name, image.bytes, upright, samples);
    if (info.colorSpace !== "grayscale") {
      const gray = await grayVariant(upright);
      await measureAll(`${image.name} (gray)`, gray.bytes, gray.pixels, samples);
    }
    console.error(`${image.name}: ${samples.length} samples so far`);
  }
  return samples;
}

const COLUMNS = ["photo", "grayscale", "encoder", "quality", "total", ...KINDS] as const;

async function save(samples: Sample[]): Promise<void> {
  await Deno.mkdir(new URL(".", SAMPLES), { recursive: true });
  const rows = samples.map((s) =>
    [s.photo, s.grayscale, s.encoder, s.quality, s.terms.total, ...KINDS.map((k) => s.terms[k])].join("\t")
  );
  await Deno.writeTextFile(SAMPLES, [COLUMNS.join("\t"), ...rows].join("\n") + "\n");
}

async function load(): Promise<Sample[]> {
  const [, ...lines] = (await Deno.readTextFile(SAMPLES)).trim().split("\n");
  return lines.map((line) => {
    const [photo, grayscale, encoder, quality, total, ...parts] = line.split("\t");
    const terms = { total: Number(total) } as QualityTerms;
    KINDS.forEach((k, i) => terms[k] = Number(parts[i]));
    return { photo: photo!, grayscale: grayscale === "true", encoder: encoder!, quality: Number(quality), terms };
  });
}

const clamp = (v: number) => Math.min(100, Math.max(0, v));
const scoreOf = (errors: number) => clamp(scoreFromWeightedSum(errors));

/**
 * A score's position in word bands: 0 at 90 (Lossless), 1 at 85, … 5 at 30 (Poor), linear in between;
 * -1 at 100 and 6 at 0.
 */
function bandPosition(score: number): number {
  const knots = [{ min: 100, at: -1 }, ...SCORE_BANDS.slice(0, -1).map((b, i) => ({ min: b.min, at: i })), {
    min: 0,
    at: SCORE_BANDS.length - 1,
  }];
  for (let i = 1; i < knots.length; i++) {
    const hi = knots[i - 1]!, lo = knots[i]!;
    if (score >= lo.min) return lo.at - (score - lo.min) / (hi.min - lo.min) * (lo.at - hi.at);
  }
  return SCORE_BANDS.length - 1;
}

/** The error scale k for one sub-score: least squares between its band position and the overall's. */
function fitScale(samples: Sample[], kind: SubScore): { k: number; rmse: number; bias: number } {
  const cost = (k: number) =>
    samples.reduce(
      (sum, s) => sum + (bandPosition(scoreOf(k * s.terms[kind])) - bandPosition(scoreOf(s.terms.total))) ** 2,
      0,
    );
  // Golden-section search on log k (the cost is unimodal in k over this range).
  let lo = Math.log(0.5), hi = Math.log(1000);
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 100; i++) {
    const a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    if (cost(Math.exp(a)) < cost(Math.exp(b))) hi = b;
    else lo = a;
  }
  const k = Math.exp((lo + hi) / 2);
  return { k, ...distance(samples, kind, k) };
}

/** RMS and mean distance (points) between a sub-score at error scale k and the overall score. */
function distance(samples: Sample[], kind: SubScore, k: number): { rmse: number; bias: number } {
  const d = samples.map((s) => scoreOf(k * s.terms[kind]) - scoreOf(s.terms.total));
  return {
    rmse: Math.sqrt(d.reduce((sum, x) => sum + x * x, 0) / d.length),
    bias: d.reduce((sum, x) => sum + x, 0) / d.length,
  };
}

/** The weighted error sum whose score is `score` (the inverse of the metric's monotone curve). */
function errorsFor(score: number): number {
  let lo = 0, hi = 1e4;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (scoreFromWeightedSum(mid) > score) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Share of samples where at least one sub-score's word is within one band of the overall's. */
function agreement(samples: Sample[], subs: (s: Sample) => Readonly<Record<SubScore, number>>) {
  let near = 0, exact = 0;
  const misses: string[] = [];
  for (const s of samples) {
    const overall = scoreWord(scoreOf(s.terms.total)).band;
    const scores = subs(s);
    const bands = KINDS.map((k) => scoreWord(scores[k]).band);
    const distance = Math.min(...bands.map((b) => Math.abs(b - overall)));
    if (distance <= 1) near++;
    else misses.push(`${s.photo} ${s.encoder} q${s.quality}`);
    if (distance === 0) exact++;
  }
  return { near, exact, misses };
}

const cached = Deno.args.includes("--cached");
const samples = cached ? await load() : await collect();
if (!cached) await save(samples);
const groups: Record<Group, Sample[]> = {
  color: samples.filter((s) => !s.grayscale),
  grayscale: samples.filter((s) => s.grayscale),
};

console.log(
  `samples: ${samples.length} (${new Set(samples.map((s) => s.photo)).size} inputs: the corpus and gray ` +
    `variants of its colour photos; ${ENCODERS.join(" and ")}, q${QUALITIES.join(",")})`,
);
const fitted = { color: {}, grayscale: {} } as Record<Group, Record<SubScore, number>>;
for (const group of ["color", "grayscale"] as const) {
  const set = groups[group];
  console.log(`${group}: ${set.length} samples`);
  for (const kind of KINDS) {
    // A grayscale photo's colour accuracy keeps the colour photos' scale (report.ts says why).
    const { k, rmse, bias } = group === "grayscale" && kind === "colorAccuracy"
      ? { k: fitted.color[kind], ...distance(set, kind, fitted.color[kind]) }
      : fitScale(set, kind);
    fitted[group][kind] = k;
    const before = distance(set, kind, 1);
    const points = [99.5, 99, 98, 97, 95, 90, 85, 80].map((raw) => `${raw}→${scoreOf(k * errorsFor(raw)).toFixed(1)}`);
    console.log(
      `  ${kind}: k = ${k.toFixed(2)} (in code: ${SUB_SCORE_ERROR_SCALE[group][kind]}); distance to overall ` +
        `RMS ${before.rmse.toFixed(1)} → ${rmse.toFixed(1)} points, mean ${before.bias.toFixed(1)} → ` +
        `${bias.toFixed(1)}; old → new: ${points.join(", ")}`,
    );
  }
}
const ones = { sharpness: 1, artifacts: 1, colorAccuracy: 1 };
const scaled = (scale: (s: Sample) => Readonly<Record<SubScore, number>>) => (s: Sample) =>
  Object.fromEntries(KINDS.map((k) => [k, scoreOf(scale(s)[k] * s.terms[k])])) as Record<SubScore, number>;
const scales = [
  ["raw", scaled(() => ones)],
  ["fitted", scaled((s: Sample) => fitted[s.grayscale ? "grayscale" : "color"])],
  ["in code, calibration only", scaled((s: Sample) => SUB_SCORE_ERROR_SCALE[s.grayscale ? "grayscale" : "color"])],
  ["in code, as reported (with the pull)", (s: Sample) => subScores(s.terms, s.grayscale)],
] as const;
for (const [label, scale] of scales) {
  for (const [name, set] of [["all", samples], ...Object.entries(groups)] as const) {
    const { near, exact, misses } = agreement(set, scale);
    console.log(
      `band agreement (${label}, ${name}): ${near}/${set.length} within one band of overall ` +
        `(${(100 * near / set.length).toFixed(1)}%), ${exact} in the same band` +
        (misses.length ? `; misses: ${misses.slice(0, 6).join(", ")}${misses.length > 6 ? ", …" : ""}` : ""),
    );
  }
}

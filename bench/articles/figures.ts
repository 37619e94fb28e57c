/**
 * `deno task bench:articles`: measures every figure the articles quote as "we measured" on the public corpus,
 * with the Debian tools they name (installed when missing) and with our own engine (through codecs/mod.ts),
 * and writes bench/articles/figures.tsv (one row per fact: a stable key and the exact text the articles quote) plus bench/articles/per-image.tsv (the raw per-photo results behind the medians).
 * Each article lists the keys it quotes in its front matter (`figures:`); tests/unit/articles-figures.test.ts fails
 * when a listed key is not in the table or the article does not quote the table's text for it.
 *
 * Units: KB and MB are decimal (1 KB = 1,000 bytes). Sizes of a set are medians unless a key says otherwise.
 */
import { AUTO_SCORE_THRESHOLD, createCodecPool } from "../../codecs/mod.ts";
import { type CompressSettings, DEFAULT_SETTINGS, type Encoder } from "../../contract/settings.ts";
import { type CorpusImage, loadCorpus } from "../corpus.ts";
import {
  cpu,
  cpuMedian,
  type Gray,
  jpegMetadataBytes,
  lowestPassing,
  max,
  median,
  min,
  readPnm,
  sh,
  shText,
  ssim,
  sum,
} from "./lib.ts";

const HERE = new URL("./", import.meta.url);
const WORK = new URL("../../.corpus/articles-work/", import.meta.url).pathname.replace(/\/$/, "");
const CONVERT = "/usr/bin/convert"; // ImageMagick itself, not a stand-in earlier on PATH

// ---- tools ----------------------------------------------------------------------------------------------
const PACKAGES: Record<string, string[]> = {
  "libjpeg-turbo-progs": ["cjpeg", "djpeg", "jpegtran"],
  webp: ["cwebp", "dwebp"],
  "libavif-bin": ["avifenc", "avifdec"],
  "libjxl-tools": ["cjxl", "djxl"],
  imagemagick: ["/usr/bin/convert", "identify"],
  time: ["/usr/bin/time"],
};

async function ensureTools(): Promise<Record<string, string>> {
  const missing: string[] = [];
  for (const [pkg, commands] of Object.entries(PACKAGES)) {
    for (const c of commands) {
      try {
        await sh(`command -v ${c}`);
      } catch {
        missing.push(pkg);
        break;
      }
    }
  }
  if (missing.length) {
    console.error(`installing ${missing.join(" ")} from Debian`);
    await sh(
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${
        missing.join(" ")
      }`,
    );
  }
  const versions: Record<string, string> = {};
  for (const pkg of Object.keys(PACKAGES)) versions[pkg] = await shText(`dpkg-query -W -f '\${Version}' ${pkg}`);
  return versions;
}

// ---- the table --------------------------------------------------------------------------------------------
interface Figure {
  key: string;
  text: string;
  value: number | string;
  note: string;
}
const figures: Figure[] = [];
const perImage: string[] = ["section\timage\tfield\tvalue"];

function fig(key: string, value: number | string, text: string, note = "") {
  if (figures.some((f) => f.key === key)) throw new Error(`duplicate figure ${key}`);
  figures.push({ key, text, value: typeof value === "number" ? round(value) : value, note });
  console.log(`${key}\t${text}`);
}
function raw(section: string, image: string, field: string, value: number | string) {
  perImage.push(`${section}\t${image}\t${field}\t${typeof value === "number" ? round(value) : value}`);
}
const round = (v: number) => Math.round(v * 10000) / 10000;

const kb = (bytes: number) => `${Math.round(bytes / 1000).toLocaleString("en-US")} KB`;
const mb = (bytes: number, digits = 2) => `${(bytes / 1e6).toFixed(digits)} MB`;
const pct = (v: number, digits = 0) => `${v.toFixed(digits)}%`;
/** A size change in words: "3.1% larger" or "0.4% smaller". */
const sizeChange = (v: number) => (v >= 0 ? `${v.toFixed(1)}% larger` : `${(-v).toFixed(1)}% smaller`);
const x2 = (v: number) => `${v.toFixed(2)}×`;
const s3 = (v: number) => v.toFixed(3);
/** Percentage change from `base` to `v` (positive: larger). */
const change = (v: number, base: number) => (100 * (v - base)) / base;
/** A photo's name in prose: its wallpaper title, without the corpus prefix and variant suffixes. */
const NAMES: Record<string, string> = {
  LadyBird: "Ladybird",
  ColorfulCups: "Colorful cups",
  EveningGlow: "Evening glow",
  FallenLeaf: "Fallen leaf",
  Picture_0B: "Fig on a red dish",
  free: "Free",
  friends: "Friends",
  aitzgorri: "Aitzgorri",
  life: "Life",
  picosdeeuropa: "Picos de Europa",
  sunset: "Sunset",
};
const label = (name: string) => {
  const stem = name.replace(/^A\d\d-[a-z]+-/, "").replace(/\.jpg$/, "")
    .replace(/-(icc|orient6|grayscale|adobergb|3840|crop.*|q99.*)$/, "");
  return NAMES[stem] ?? stem;
};

// ---- pixels and encoders -----------------------------------------------------------------------------------
async function gray(cmd: string): Promise<Gray> {
  return readPnm(await sh(cmd));
}
const grayOfJpeg = (file: string) => gray(`djpeg -pnm ${file}`);
const size = async (file: string) => (await Deno.stat(file)).size;

async function cjpeg(ppm: string, out: string, args: string): Promise<number> {
  await sh(`cjpeg ${args} -outfile ${out} ${ppm}`);
  return size(out);
}

// ---- main ------------------------------------------------------------------------------------------------
const versions = await ensureTools();
await sh(`rm -rf ${WORK} && mkdir -p ${WORK}/r ${WORK}/w ${WORK}/t ${WORK}/k ${WORK}/m ${WORK}/g`);
/** FIGURES_QUICK=1: a smoke run on three photos that writes nothing to the repository. */
const QUICK = Deno.env.get("FIGURES_QUICK") === "1";
const corpus = (await loadCorpus()).filter((i) => !QUICK || ["A01-", "A05-", "A19-"].some((p) => i.name.startsWith(p)));
const corpusDir = new URL("../../.corpus/A/", import.meta.url).pathname;
const path = (image: CorpusImage) => `${corpusDir}${image.name}`;
/** The crops and the q99 re-encode repeat scenes already in the corpus. */
const DUPLICATES = ["A22-", "A23-", "A24-"];
const distinct = corpus.filter((i) => !DUPLICATES.some((d) => i.name.startsWith(d)));
const kleiber = corpus.find((i) => i.name.startsWith("A19-"))!;

fig("corpus.images", corpus.length, `${corpus.length} photographs`);
fig("corpus.distinct", distinct.length, `${distinct.length} distinct`);
fig(
  "corpus.megapixels",
  sum(corpus.map((i) => i.megapixels)),
  `${sum(corpus.map((i) => i.megapixels)).toFixed(1)} megapixels`,
);
const corpusBytes = sum(corpus.map((i) => i.bytes.length));
fig("corpus.total_mb", corpusBytes / 1e6, mb(corpusBytes, 1));

// 1600 px long edge, upright, as PPM: the "1,600 px set" (every photo; medians use the distinct ones).
const r1600 = new Map<string, string>();
for (const image of corpus) {
  const out = `${WORK}/r/${image.name}.ppm`;
  await sh(`${CONVERT} ${path(image)} -auto-orient -resize '1600x1600>' ppm:${out}`);
  r1600.set(image.name, out);
  await sh(`${CONVERT} ${out} png:${out}.png`); // avifenc 0.11 reads PNG, JPEG or Y4M, not PPM
}
const refGray = new Map<string, Gray>();
for (const image of corpus) refGray.set(image.name, readPnm(await Deno.readFile(r1600.get(image.name)!)));
const mp1600 = (image: CorpusImage) => {
  const g = refGray.get(image.name)!;
  return (g.width * g.height) / 1e6;
};

// ---- quality ladder (articles 1, 2, 7) ----------------------------------------------------------------------
const QUALITIES = [50, 60, 70, 75, 80, 85, 90, 95, 100];
const ladder = new Map<number, { bytes: number[]; ssim: number[] }>();
const q80Bytes = new Map<string, number>();
const q80Ssim = new Map<string, number>();
for (const q of QUALITIES) {
  const bytes: number[] = [], scores: number[] = [];
  for (const image of distinct) {
    const out = `${WORK}/t/q${q}.jpg`;
    const n = await cjpeg(r1600.get(image.name)!, out, `-quality ${q} -optimize`);
    const s = ssim(refGray.get(image.name)!, await grayOfJpeg(out));
    bytes.push(n);
    scores.push(s);
    raw("ladder", image.name, `q${q}_bytes`, n);
    raw("ladder", image.name, `q${q}_ssim`, s);
    if (q === 80) {
      q80Bytes.set(image.name, n);
      q80Ssim.set(image.name, s);
    }
  }
  ladder.set(q, { bytes, ssim: scores });
}
const median80 = median(ladder.get(80)!.bytes);
for (const q of QUALITIES) {
  const { bytes, ssim: scores } = ladder.get(q)!;
  fig(`ladder.q${q}.median_kb`, median(bytes) / 1000, kb(median(bytes)));
  if (q !== 80) fig(`ladder.q${q}.ratio_of_medians`, median(bytes) / median80, x2(median(bytes) / median80));
  fig(`ladder.q${q}.ssim_median`, median(scores), s3(median(scores)));
  if (q >= 60 && q <= 95) fig(`ladder.q${q}.ssim_worst`, min(scores), s3(min(scores)));
}
const names80 = distinct.map((i) => i.name);
const worst80 = names80[ladder.get(80)!.ssim.indexOf(min(ladder.get(80)!.ssim))]!;
fig("ladder.q80.worst_photo", label(worst80), label(worst80));

// ---- resizing alone: every original against its 1,600 px q80 version (article 19) ------------------------------
{
  let resized = 0;
  for (const image of corpus) {
    resized += await cjpeg(r1600.get(image.name)!, `${WORK}/t/r.jpg`, "-quality 80 -optimize");
  }
  fig("resize.total_1600_q80_mb", resized / 1e6, mb(resized, 1));
}

// ---- PNG (article 2) ---------------------------------------------------------------------------------------
{
  const pngBytes: number[] = [], ratios: number[] = [];
  for (const image of distinct) {
    const out = `${WORK}/t/p.png`;
    await sh(`${CONVERT} ${r1600.get(image.name)} png:${out}`);
    const n = await size(out);
    pngBytes.push(n);
    ratios.push(n / q80Bytes.get(image.name)!);
    raw("png", image.name, "bytes", n);
  }
  fig("png.median_mb", median(pngBytes) / 1e6, mb(median(pngBytes), 1));
  fig("png.ratio_median", median(ratios), `${Math.round(median(ratios))} times`);
  fig(
    "png.ratio_range",
    `${min(ratios).toFixed(0)}-${max(ratios).toFixed(0)}`,
    `${Math.round(min(ratios))}-${Math.round(max(ratios))}×`,
  );
}

// ---- chroma subsampling, progressive, Huffman, arithmetic (articles 1, 3, 7, 19) ----------------------------------
{
  const c444: number[] = [], c422: number[] = [], prog: number[] = [], std: number[] = [], arith: number[] = [];
  for (const image of distinct) {
    const ppm = r1600.get(image.name)!, base = q80Bytes.get(image.name)!;
    const out = `${WORK}/t/v.jpg`;
    c444.push(change(await cjpeg(ppm, out, "-quality 80 -optimize -sample 1x1"), base));
    c422.push(change(await cjpeg(ppm, out, "-quality 80 -optimize -sample 2x1"), base));
    prog.push(change(await cjpeg(ppm, out, "-quality 80 -progressive"), base));
    std.push(change(await cjpeg(ppm, out, "-quality 80"), base));
    arith.push(change(await cjpeg(ppm, out, "-quality 80 -arithmetic"), base));
    raw("variants", image.name, "c444_pct", c444.at(-1)!);
    raw("variants", image.name, "c422_pct", c422.at(-1)!);
    raw("variants", image.name, "progressive_pct", prog.at(-1)!);
    raw("variants", image.name, "standard_huffman_pct", std.at(-1)!);
    raw("variants", image.name, "arithmetic_pct", arith.at(-1)!);
  }
  fig("chroma.444_vs_420.median_pct", median(c444), pct(median(c444)));
  fig(
    "chroma.444_vs_420.range",
    `${min(c444).toFixed(0)}-${max(c444).toFixed(0)}`,
    `${min(c444).toFixed(0)}% and ${max(c444).toFixed(0)}%`,
  );
  fig("chroma.422_vs_420.median_pct", median(c422), pct(median(c422)));
  fig("progressive.median_saving_pct", -median(prog), pct(-median(prog), 1));
  fig("progressive.best_saving_pct", -min(prog), pct(-min(prog), 1));
  fig("progressive.worst_growth_pct", max(prog), pct(max(prog), 1));
  const larger = prog.filter((p) => p > 0).length;
  fig("progressive.larger_count", larger, `${larger} of the ${distinct.length}`);
  fig("huffman.standard_median_pct", median(std), pct(median(std), 1));
  fig("huffman.standard_max_pct", max(std), pct(max(std)));
  fig("arithmetic.median_saving_pct", -median(arith), pct(-median(arith)));
}

// ---- metadata and lossless rewrites on the originals (articles 1, 3, 6, 19) -------------------------------------
{
  const meta = corpus.map((i) => jpegMetadataBytes(i.bytes));
  corpus.forEach((i, n) => raw("metadata", i.name, "bytes", meta[n]!));
  const top = meta.indexOf(max(meta));
  const topImage = corpus[top]!;
  fig("metadata.largest_kb", meta[top]! / 1000, kb(meta[top]!));
  fig("metadata.largest_photo", label(topImage.name), label(topImage.name));
  fig(
    "metadata.largest_share_pct",
    (100 * meta[top]!) / topImage.bytes.length,
    pct((100 * meta[top]!) / topImage.bytes.length),
  );
  fig("metadata.largest_file_kb", topImage.bytes.length / 1000, kb(topImage.bytes.length));
  const under1k = meta.filter((m) => m < 1000).length;
  fig("metadata.under_1kb_count", under1k, `${under1k} of the ${corpus.length}`);
  fig("metadata.kleiber_bytes", meta[corpus.indexOf(kleiber)]!, `${meta[corpus.indexOf(kleiber)]} bytes`);

  const lossless: number[] = [], strip: number[] = [], stripOnly: number[] = [];
  const a6prog: number[] = [], a6lossy: number[] = [];
  for (const image of corpus) {
    const f = path(image), n = image.bytes.length;
    const out = `${WORK}/t/l.jpg`;
    await sh(`jpegtran -copy all -optimize -progressive -outfile ${out} ${f}`);
    lossless.push(-change(await size(out), n));
    await sh(`jpegtran -copy none -optimize -progressive -outfile ${out} ${f}`);
    strip.push(-change(await size(out), n));
    stripOnly.push((100 * meta[corpus.indexOf(image)]!) / n);
    // Article 6's script: lossless baseline and progressive (ICC kept), then a q80 re-encode.
    await sh(`jpegtran -copy icc -optimize -outfile ${WORK}/t/base.jpg ${f}`);
    await sh(`jpegtran -copy icc -progressive -outfile ${WORK}/t/prog.jpg ${WORK}/t/base.jpg`);
    const b = await size(`${WORK}/t/base.jpg`), p = await size(`${WORK}/t/prog.jpg`);
    a6prog.push(change(p, b));
    await sh(`djpeg ${WORK}/t/base.jpg | cjpeg -quality 80 -optimize -progressive > ${WORK}/t/lossy.jpg`);
    a6lossy.push(-change(await size(`${WORK}/t/lossy.jpg`), Math.min(b, p)));
    raw("lossless", image.name, "jpegtran_copy_all_pct", lossless.at(-1)!);
    raw("lossless", image.name, "jpegtran_copy_none_pct", strip.at(-1)!);
    raw("article6", image.name, "progressive_vs_baseline_pct", a6prog.at(-1)!);
    raw("article6", image.name, "q80_vs_lossless_saving_pct", a6lossy.at(-1)!);
  }
  fig("lossless.median_pct", median(lossless), pct(median(lossless), 1));
  fig("lossless.max_pct", max(lossless), pct(max(lossless)));
  fig("lossless_strip.median_pct", median(strip), pct(median(strip), 1));
  fig("lossless_strip.max_pct", max(strip), pct(max(strip)));
  const progLarger = a6prog.filter((v) => v > 0).length;
  fig("a6.progressive_larger_count", progLarger, `${progLarger} of the ${corpus.length}`);
  fig("a6.progressive_larger_max_pct", max(a6prog), pct(max(a6prog), 1));
  const kept = a6lossy.filter((v) => v < 10).length;
  fig("a6.kept_lossless_count", kept, `${kept} of the ${corpus.length}`);
  const lo = a6lossy.indexOf(min(a6lossy)), hi = a6lossy.indexOf(max(a6lossy));
  fig(
    "a6.smallest_gain",
    `${label(corpus[lo]!.name)} ${a6lossy[lo]!.toFixed(1)}`,
    a6lossy[lo]! < 0 ? `${(-a6lossy[lo]!).toFixed(1)}% larger` : `${a6lossy[lo]!.toFixed(1)}% smaller`,
    label(corpus[lo]!.name),
  );
  fig(
    "a6.largest_gain",
    `${label(corpus[hi]!.name)} ${a6lossy[hi]!.toFixed(0)}`,
    `${a6lossy[hi]!.toFixed(0)}% smaller`,
    label(corpus[hi]!.name),
  );
}

// ---- one photo, step by step: Kleiber, 6028×3391 (articles 1, 3, 5) -----------------------------------------
{
  const f = path(kleiber), n = kleiber.bytes.length;
  fig("kleiber.original_mb", n / 1e6, mb(n));
  const t = `${WORK}/k/t.jpg`;
  await sh(`jpegtran -copy none -outfile ${t} ${f}`);
  fig("kleiber.strip_default_huffman_mb", (await size(t)) / 1e6, mb(await size(t)));
  await sh(`jpegtran -copy none -optimize -outfile ${t} ${f}`);
  fig("kleiber.strip_optimized_mb", (await size(t)) / 1e6, mb(await size(t)));
  await sh(`jpegtran -copy none -progressive -outfile ${t} ${f}`);
  const best = await size(t);
  fig("kleiber.strip_progressive_mb", best / 1e6, mb(best));
  fig("kleiber.lossless_saving_pct", -change(best, n), pct(-change(best, n), 1));

  await sh(`djpeg -pnm ${f} > ${WORK}/k/full.ppm`);
  const full = readPnm(await Deno.readFile(`${WORK}/k/full.ppm`));
  for (const q of [80, 60, 40, 30]) {
    const bytes = await cjpeg(`${WORK}/k/full.ppm`, t, `-quality ${q} -optimize`);
    fig(`kleiber.full_q${q}_size`, bytes, q === 80 ? mb(bytes) : kb(bytes));
    fig(`kleiber.full_q${q}_ssim`, ssim(full, await grayOfJpeg(t)), s3(ssim(full, await grayOfJpeg(t))));
  }
  // Resized to 2560 px wide, then the path of article 3.
  await sh(`${CONVERT} ${f} -auto-orient -resize 2560x ppm:${WORK}/k/2560.ppm`);
  const r = `${WORK}/k/2560.ppm`, rg = readPnm(await Deno.readFile(r));
  const step = async (key: string, args: string, withSsim = false) => {
    const bytes = await cjpeg(r, t, args);
    fig(`kleiber.2560_${key}_kb`, bytes / 1000, kb(bytes));
    if (withSsim) fig(`kleiber.2560_${key}_ssim`, ssim(rg, await grayOfJpeg(t)), s3(ssim(rg, await grayOfJpeg(t))));
  };
  await step("q92_422", "-quality 92 -optimize -sample 2x1", true);
  await step("q85_422", "-quality 85 -optimize -sample 2x1", true);
  await step("q80_422", "-quality 80 -optimize -sample 2x1", true);
  await step("q80_444", "-quality 80 -optimize -sample 1x1");
  await step("q80_420", "-quality 80 -optimize -sample 2x2");
  await step("q80_420_prog", "-quality 80 -sample 2x2 -progressive");
  await step("q75_420_prog", "-quality 75 -sample 2x2 -progressive");
  await step("q70_420_prog", "-quality 70 -sample 2x2 -progressive");
  for (const w of [2048, 1600]) {
    await sh(`${CONVERT} ${f} -auto-orient -resize ${w}x ppm:${WORK}/k/${w}.ppm`);
    const bytes = await cjpeg(`${WORK}/k/${w}.ppm`, t, "-quality 80 -optimize");
    fig(`kleiber.w${w}_q80_kb`, bytes / 1000, kb(bytes));
  }

  // Decode cost (article 5): the full-size q80 file baseline and progressive, and a 1170 px version.
  await cjpeg(`${WORK}/k/full.ppm`, `${WORK}/k/full-base.jpg`, "-quality 80 -optimize");
  await cjpeg(`${WORK}/k/full.ppm`, `${WORK}/k/full-prog.jpg`, "-quality 80 -progressive");
  await sh(`${CONVERT} ${f} -auto-orient -resize 1170x ppm:${WORK}/k/1170.ppm`);
  await cjpeg(`${WORK}/k/1170.ppm`, `${WORK}/k/s-base.jpg`, "-quality 80 -optimize");
  await cjpeg(`${WORK}/k/1170.ppm`, `${WORK}/k/s-prog.jpg`, "-quality 80 -progressive");
  const decodeMs = async (file: string, reps: number) =>
    (1000 * await cpuMedian(`for i in $(seq ${reps}); do djpeg ${file} > /dev/null; done\n`, `${WORK}/k`, 3)) / reps;
  const [fb, fp, sb, sp] = [
    await decodeMs(`${WORK}/k/full-base.jpg`, 10),
    await decodeMs(`${WORK}/k/full-prog.jpg`, 10),
    await decodeMs(`${WORK}/k/s-base.jpg`, 200),
    await decodeMs(`${WORK}/k/s-prog.jpg`, 200),
  ];
  fig("decode.kleiber_full_baseline_ms", fb, `${Math.round(fb)} ms`);
  fig("decode.kleiber_full_progressive_ms", fp, `${Math.round(fp)} ms`);
  fig("decode.kleiber_1170_baseline_ms", sb, `${Math.round(sb)} ms`);
  fig("decode.kleiber_1170_progressive_ms", sp, `${Math.round(sp)} ms`);
}

// ---- widths (articles 4, 5) -------------------------------------------------------------------------------------
{
  const wide = distinct.filter((i) => {
    const g = refGray.get(i.name)!;
    return g.width > g.height && i.width >= 2400;
  });
  fig("widths.photos", wide.length, `${wide.length} landscape photos`);
  const WIDTHS = [390, 480, 780, 800, 1170, 1200, 1600, 2400];
  const medians = new Map<string, number>();
  for (const w of WIDTHS) {
    const q80: number[] = [], q60: number[] = [];
    for (const image of wide) {
      const ppm = `${WORK}/w/${w}.ppm`;
      await sh(`${CONVERT} ${path(image)} -auto-orient -resize ${w}x ppm:${ppm}`);
      q80.push(await cjpeg(ppm, `${WORK}/w/o.jpg`, "-quality 80 -optimize"));
      raw("widths", image.name, `w${w}_q80_bytes`, q80.at(-1)!);
      if ([390, 780, 1170].includes(w)) {
        q60.push(await cjpeg(ppm, `${WORK}/w/o.jpg`, "-quality 60 -optimize"));
        raw("widths", image.name, `w${w}_q60_bytes`, q60.at(-1)!);
      }
    }
    const table = [480, 800, 1200, 1600, 2400].includes(w);
    fig(`widths.w${w}.q80_median_kb`, median(q80) / 1000, kb(median(q80)));
    medians.set(`${w}`, median(q80));
    if (table) {
      fig(
        `widths.w${w}.q80_range_kb`,
        `${Math.round(min(q80) / 1000)}-${Math.round(max(q80) / 1000)}`,
        `${Math.round(min(q80) / 1000)}-${Math.round(max(q80) / 1000)} KB`,
      );
    }
    if (q60.length) fig(`widths.w${w}.q60_median_kb`, median(q60) / 1000, kb(median(q60)));
  }
  // Transfer time at DevTools' throttling presets as applied (Slow 4G 1.44 Mbps, 3G 0.4 Mbps), bytes only.
  const seconds = (bytes: number, mbps: number) => (bytes * 8) / (mbps * 1e6);
  for (const w of ["2400", "780", "800"]) {
    const b = medians.get(w)!;
    fig(`transfer.w${w}_slow4g_s`, seconds(b, 1.44), `${seconds(b, 1.44).toFixed(1)} seconds`);
    if (w !== "800") fig(`transfer.w${w}_3g_s`, seconds(b, 0.4), `${seconds(b, 0.4).toFixed(1)} seconds`);
  }
}

// ---- formats at matched SSIM, on the 1,600 px set (articles 10, 18, 19) -------------------------------------------
interface Matched {
  bytes: number;
  setting: number;
  file: string;
}
{
  const rows: { image: CorpusImage; jpeg: number; webp: Matched; avif: Matched; jxl: Matched }[] = [];
  const d = `${WORK}/m`;
  for (const image of distinct) {
    const ppm = r1600.get(image.name)!, png = `${ppm}.png`, ref = refGray.get(image.name)!;
    const target = q80Ssim.get(image.name)!;
    const tag = image.name.slice(0, 3);
    await cjpeg(ppm, `${d}/${tag}.jpg`, "-quality 80 -optimize");
    const probe =
      (ext: string, encode: (s: number, out: string) => string, decode: (f: string) => string) =>
      async (setting: number) => {
        const out = `${d}/${tag}-${setting}.${ext}`;
        await sh(encode(setting, out));
        const score = ssim(ref, await gray(decode(out)));
        return { pass: score >= target, value: { bytes: await size(out), setting, file: out } };
      };
    const webp = await lowestPassing(
      0,
      100,
      probe("webp", (q, o) => `cwebp -quiet -q ${q} ${ppm} -o ${o}`, (f) => `dwebp -quiet -ppm ${f} -o -`),
    );
    // AVIF: cq-level 63..0 (lower is better); searched as 63 - cq so that higher = better.
    const avif = await lowestPassing(
      0,
      63,
      probe(
        "avif",
        (s, o) =>
          `avifenc -s 6 -j 1 -y 420 --min 0 --max 63 -a end-usage=q -a cq-level=${63 - s} ${png} ${o} > /dev/null`,
        (f) => `avifdec ${f} ${f}.png > /dev/null && ${CONVERT} ${f}.png ppm:-`,
      ),
    );
    // JPEG XL: distance 0.1-10 in steps of 0.1, searched as 100 - 10·d.
    const jxl = await lowestPassing(
      0,
      99,
      probe(
        "jxl",
        (s, o) => `cjxl --quiet --num_threads=0 -e 7 -d ${((100 - s) / 10).toFixed(1)} ${ppm} ${o} 2>/dev/null`,
        (f) => `djxl --quiet ${f} ${f}.ppm 2>/dev/null && cat ${f}.ppm`,
      ),
    );
    if (!webp || !avif || !jxl) throw new Error(`no setting matched ${image.name}`);
    const row = {
      image,
      jpeg: q80Bytes.get(image.name)!,
      webp: { ...webp.value, setting: webp.setting },
      avif: { ...avif.value, setting: 63 - avif.setting },
      jxl: { ...jxl.value, setting: (100 - jxl.setting) / 10 },
    };
    rows.push(row);
    for (const k of ["webp", "avif", "jxl"] as const) {
      raw("matched", image.name, `${k}_bytes`, row[k].bytes);
      raw("matched", image.name, `${k}_setting`, row[k].setting);
    }
    raw("matched", image.name, "jpeg_q80_bytes", row.jpeg);
    raw("matched", image.name, "jpeg_q80_ssim", target);
  }
  const totalJpeg = sum(rows.map((r) => r.jpeg));
  fig("matched.jpeg_total_mb", totalJpeg / 1e6, mb(totalJpeg));
  for (const k of ["webp", "avif", "jxl"] as const) {
    const ratios = rows.map((r) => r[k].bytes / r.jpeg);
    const total = sum(rows.map((r) => r[k].bytes));
    const saving = 100 * (1 - median(ratios));
    fig(`matched.${k}.median_saving_pct`, saving, pct(saving));
    fig(`matched.${k}.median_ratio`, median(ratios), median(ratios).toFixed(2));
    fig(
      `matched.${k}.ratio_range`,
      `${min(ratios).toFixed(2)}-${max(ratios).toFixed(2)}`,
      `${min(ratios).toFixed(2)}-${max(ratios).toFixed(2)}`,
    );
    fig(`matched.${k}.total_mb`, total / 1e6, mb(total));
    const smaller = ratios.filter((r) => r < 1).length;
    fig(`matched.${k}.smaller_count`, smaller, `${smaller} of ${rows.length}`);
    const best = ratios.indexOf(min(ratios)), worst = ratios.indexOf(max(ratios));
    fig(
      `matched.${k}.best`,
      `${label(rows[best]!.image.name)} ${(100 * (1 - ratios[best]!)).toFixed(0)}`,
      pct(100 * (1 - ratios[best]!)),
      `smaller, ${label(rows[best]!.image.name)}`,
    );
    const worstText = ratios[worst]! > 1
      ? `${(100 * (ratios[worst]! - 1)).toFixed(0)}% larger`
      : `${(100 * (1 - ratios[worst]!)).toFixed(0)}% smaller`;
    fig(
      `matched.${k}.worst`,
      `${label(rows[worst]!.image.name)} ${worstText}`,
      worstText,
      label(rows[worst]!.image.name),
    );
    const settings = rows.map((r) => r[k].setting);
    const fmt = (v: number) => (k === "jxl" ? v.toFixed(1) : `${v}`);
    fig(
      `matched.${k}.setting_range`,
      `${fmt(min(settings))}-${fmt(max(settings))}`,
      `between ${fmt(min(settings))} and ${fmt(max(settings))}`,
    );
  }
  fig("matched.jpeg_median_kb", median(rows.map((r) => r.jpeg)) / 1000, kb(median(rows.map((r) => r.jpeg))));

  // Encode and decode CPU per megapixel, single-threaded, on the matched files.
  const mpTotal = sum(rows.map((r) => mp1600(r.image)));
  const perMp = async (script: string) => (1000 * await cpuMedian(script, d, 3)) / mpTotal;
  const each = (f: (r: (typeof rows)[number]) => string) => rows.map(f).join("\n") + "\n";
  const enc = {
    jpeg: await perMp(each((r) => `cjpeg -quality 80 -optimize ${r1600.get(r.image.name)} > /dev/null`)),
    jpegProg: await perMp(each((r) => `cjpeg -quality 80 -progressive ${r1600.get(r.image.name)} > /dev/null`)),
    webp: await perMp(each((r) => `cwebp -quiet -q ${r.webp.setting} ${r1600.get(r.image.name)} -o /dev/null`)),
    webp80: await perMp(each((r) => `cwebp -quiet -q 80 ${r1600.get(r.image.name)} -o /dev/null`)),
    webp80m6: await perMp(each((r) => `cwebp -quiet -q 80 -m 6 ${r1600.get(r.image.name)} -o /dev/null`)),
    avif: await perMp(
      each((r) =>
        `avifenc -s 6 -j 1 -y 420 --min 0 --max 63 -a end-usage=q -a cq-level=${r.avif.setting} ${
          r1600.get(r.image.name)
        }.png ${d}/x.avif > /dev/null`
      ),
    ),
    jxl: await perMp(
      each((r) =>
        `cjxl --quiet --num_threads=0 -e 7 -d ${r.jxl.setting.toFixed(1)} ${
          r1600.get(r.image.name)
        } ${d}/x.jxl 2>/dev/null`
      ),
    ),
  };
  const dec = {
    jpeg: await perMp(each((r) => `djpeg ${d}/${r.image.name.slice(0, 3)}.jpg > /dev/null`)),
    webp: await perMp(each((r) => `dwebp -quiet -ppm ${r.webp.file} -o /dev/null`)),
    avif: await perMp(each((r) => `avifdec -j 1 -c dav1d ${r.avif.file} ${d}/x.y4m > /dev/null`)),
    jxl: await perMp(each((r) => `djxl --quiet --num_threads=0 ${r.jxl.file} ${d}/x.ppm 2>/dev/null`)),
  };
  const ms = (v: number) => `${Math.round(v)} ms`;
  fig("encode.cjpeg_q80_optimize_ms_per_mp", enc.jpeg, ms(enc.jpeg));
  fig("encode.cjpeg_q80_progressive_ms_per_mp", enc.jpegProg, ms(enc.jpegProg));
  fig("encode.cwebp_matched_ms_per_mp", enc.webp, ms(enc.webp));
  fig("encode.cwebp_q80_m4_ms_per_mp", enc.webp80, ms(enc.webp80));
  fig("encode.cwebp_q80_m6_ms_per_mp", enc.webp80m6, ms(enc.webp80m6));
  fig("encode.avifenc_s6_ms_per_mp", enc.avif, ms(enc.avif));
  fig("encode.cjxl_e7_ms_per_mp", enc.jxl, ms(enc.jxl));
  fig("decode.djpeg_ms_per_mp", dec.jpeg, ms(dec.jpeg));
  fig("decode.dwebp_ms_per_mp", dec.webp, ms(dec.webp));
  fig("decode.avifdec_dav1d_ms_per_mp", dec.avif, ms(dec.avif));
  fig("decode.djxl_ms_per_mp", dec.jxl, ms(dec.jxl));

  // Fixed "typical" settings instead of matched quality (article 18).
  const fixedWebp: number[] = [], fixedAvif: number[] = [], ssimWebp: number[] = [], ssimAvif: number[] = [];
  for (const r of rows) {
    const ppm = r1600.get(r.image.name)!, ref = refGray.get(r.image.name)!;
    await sh(`cwebp -quiet -q 80 ${ppm} -o ${d}/f.webp`);
    fixedWebp.push(1 - (await size(`${d}/f.webp`)) / r.jpeg);
    ssimWebp.push(ssim(ref, await gray(`dwebp -quiet -ppm ${d}/f.webp -o -`)));
    await sh(
      `avifenc -s 6 -j 1 -y 420 --min 0 --max 63 -a end-usage=q -a cq-level=25 ${
        r1600.get(r.image.name)
      }.png ${d}/f.avif > /dev/null`,
    );
    fixedAvif.push(1 - (await size(`${d}/f.avif`)) / r.jpeg);
    ssimAvif.push(ssim(ref, await gray(`avifdec ${d}/f.avif ${d}/f.png > /dev/null && ${CONVERT} ${d}/f.png ppm:-`)));
  }
  const jpegSsims = rows.map((r) => q80Ssim.get(r.image.name)!);
  fig("fixed.webp_q80.median_saving_pct", 100 * median(fixedWebp), pct(100 * median(fixedWebp)));
  fig("fixed.avif_cq25.median_saving_pct", 100 * median(fixedAvif), pct(100 * median(fixedAvif)));
  fig("fixed.webp_q80.median_ssim", median(ssimWebp), s3(median(ssimWebp)));
  fig("fixed.avif_cq25.median_ssim", median(ssimAvif), s3(median(ssimAvif)));
  fig("fixed.jpeg_q80.median_ssim", median(jpegSsims), s3(median(jpegSsims)));
}

// ---- lossless JPEG → JPEG XL transcoding on the originals (articles 10, 15) ---------------------------------------
{
  const d = `${WORK}/t`;
  let inBytes = 0, outBytes = 0, identical = 0;
  const savings: number[] = [];
  for (const image of corpus) {
    await sh(`cjxl --quiet ${path(image)} ${d}/l.jxl 2>/dev/null`);
    await sh(`djxl --quiet ${d}/l.jxl ${d}/back.jpg 2>/dev/null`);
    const o = await size(`${d}/l.jxl`);
    inBytes += image.bytes.length;
    outBytes += o;
    savings.push(-change(o, image.bytes.length));
    raw("jxl_transcode", image.name, "saving_pct", savings.at(-1)!);
    const back = await Deno.readFile(`${d}/back.jpg`);
    if (back.length === image.bytes.length && back.every((b, i) => b === image.bytes[i])) identical++;
  }
  fig("jxl_transcode.total_saving_pct", -change(outBytes, inBytes), pct(-change(outBytes, inBytes), 1));
  fig(
    "jxl_transcode.range_pct",
    `${min(savings).toFixed(0)}-${max(savings).toFixed(0)}`,
    `${min(savings).toFixed(0)}-${max(savings).toFixed(0)}%`,
  );
  fig(
    "jxl_transcode.identical",
    `${identical}/${corpus.length}`,
    identical === corpus.length ? `all ${corpus.length}` : `${identical} of ${corpus.length}`,
  );
}

// ---- target a score: cjpeg's lowest quality reaching SSIM 0.985 (article 19) --------------------------------------
{
  const chosen: { image: CorpusImage; q: number }[] = [];
  for (const image of distinct) {
    const ppm = r1600.get(image.name)!, ref = refGray.get(image.name)!;
    const out = `${WORK}/t/s.jpg`;
    const r = await lowestPassing(1, 100, async (q) => {
      await cjpeg(ppm, out, `-quality ${q} -optimize`);
      return { pass: ssim(ref, await grayOfJpeg(out)) >= 0.985, value: q };
    });
    chosen.push({ image, q: r?.setting ?? 101 });
    raw("target_ssim_0.985", image.name, "quality", r?.setting ?? "none");
  }
  const qs = chosen.map((c) => c.q);
  const lo = chosen[qs.indexOf(min(qs))]!, hi = chosen[qs.indexOf(max(qs))]!;
  fig("target0985.lowest", `${label(lo.image.name)} ${lo.q}`, `quality ${lo.q}`, label(lo.image.name));
  fig("target0985.highest", `${label(hi.image.name)} ${hi.q}`, `quality ${hi.q}`, label(hi.image.name));
}

// ---- generation loss (article 7) ----------------------------------------------------------------------------------
{
  const picks = distinct.filter((i) => ["A01-", "A05-", "A19-"].some((p) => i.name.startsWith(p)));
  const d = `${WORK}/g`;
  const cropPpm = (bytes: Uint8Array): Uint8Array => {
    const g = readPnm(bytes); // only to read the size; crop the RGB raster by one row and one column
    const header = new TextEncoder().encode(`P6\n${g.width - 1} ${g.height - 1}\n255\n`);
    const start = bytes.length - g.width * g.height * 3;
    const out = new Uint8Array(header.length + (g.width - 1) * (g.height - 1) * 3);
    out.set(header);
    let o = header.length;
    for (let y = 1; y < g.height; y++) {
      const row = start + (y * g.width + 1) * 3;
      out.set(bytes.subarray(row, row + (g.width - 1) * 3), o);
      o += (g.width - 1) * 3;
    }
    return out;
  };
  const same: number[] = [], alternating: number[] = [];
  const crops: string[] = [];
  let allBelowQ50 = true;
  for (const image of picks) {
    const master = await Deno.readFile(r1600.get(image.name)!);
    const ref = readPnm(master);
    const run = async (quality: (gen: number) => number, crop: boolean) => {
      let pixels: Uint8Array = master;
      let first = 0, last = 0, cropped: Uint8Array = master;
      for (let gen = 1; gen <= 10; gen++) {
        if (crop) {
          pixels = cropPpm(pixels);
          cropped = cropPpm(cropped);
        }
        await Deno.writeFile(`${d}/in.ppm`, pixels);
        await cjpeg(`${d}/in.ppm`, `${d}/g.jpg`, `-quality ${quality(gen)} -optimize`);
        pixels = await sh(`djpeg -pnm ${d}/g.jpg`);
        const score = ssim(crop ? readPnm(cropped) : ref, readPnm(pixels));
        if (gen === 1) first = score;
        last = score;
      }
      return { first, last };
    };
    const s = await run(() => 80, false);
    const a = await run((g) => (g % 2 ? 80 : 85), false);
    const c = await run(() => 80, true);
    same.push(s.first - s.last);
    alternating.push(a.first - a.last);
    crops.push(`${c.first.toFixed(3)} to ${c.last.toFixed(3)}`);
    await cjpeg(r1600.get(image.name)!, `${d}/q50.jpg`, "-quality 50 -optimize");
    if (c.last >= ssim(ref, await grayOfJpeg(`${d}/q50.jpg`))) allBelowQ50 = false;
    raw("generations", image.name, "same_q80_drop", s.first - s.last);
    raw("generations", image.name, "alternating_drop", a.first - a.last);
    raw("generations", image.name, "crop_first_last", crops.at(-1)!);
  }
  fig("generations.photos", picks.map((p) => label(p.name)).join(", "), `${picks.length} of our test images`);
  fig("generations.same_max_drop", max(same), max(same).toFixed(4));
  fig(
    "generations.alternating_range",
    `${min(alternating).toFixed(4)}-${max(alternating).toFixed(4)}`,
    `${min(alternating).toFixed(4)} to ${max(alternating).toFixed(4)}`,
  );
  picks.forEach((p, i) => fig(`generations.crop.${label(p.name)}`, crops[i]!, crops[i]!));
  fig(
    "generations.crop_all_below_q50",
    allBelowQ50 ? "yes" : "no",
    allBelowQ50 ? "All three ended below" : "not all three ended below",
  );
}

// ---- a product gallery: the first 12 photos (article 12) ----------------------------------------------------------
{
  const gallery = corpus.slice(0, 12);
  let orig = 0, noResize = 0, resized = 0, resizedProg = 0, bigger = 0;
  const d = `${WORK}/t`;
  for (const image of gallery) {
    const est = await shText(`identify -format '%Q' ${path(image)}`);
    await sh(`djpeg -pnm ${path(image)} > ${d}/full.ppm`);
    const a = await cjpeg(`${d}/full.ppm`, `${d}/a.jpg`, "-quality 85 -optimize");
    const b = await cjpeg(r1600.get(image.name)!, `${d}/b.jpg`, "-quality 85 -optimize");
    const c = await cjpeg(r1600.get(image.name)!, `${d}/c.jpg`, "-quality 85 -progressive");
    const n = image.bytes.length;
    orig += n;
    noResize += a;
    resized += b;
    resizedProg += c;
    if (a > n) bigger++;
    const id = Number(image.name.slice(1, 3));
    fig(
      `gallery.${id}`,
      `${n} ${a} ${b}`,
      `| ${image.width}×${image.height} | ${est} | ${kb(n)} | ${kb(a)} | ${kb(b)} | −${Math.round(-change(b, n))}% |`,
      `${label(image.name)}: size, estimated quality, original, q85 full size, q85 1,600 px, saving`,
    );
  }
  fig(
    "gallery.total",
    `${orig} ${noResize} ${resized}`,
    `**${kb(orig)}** | **${kb(noResize)}** | **${kb(resized)}** | **−${Math.round(-change(resized, orig))}%**`,
  );
  fig("gallery.no_resize_saving_pct", -change(noResize, orig), pct(-change(noResize, orig)));
  fig(
    "gallery.bigger_count",
    bigger,
    `${
      ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"][bigger]
    } of the twelve`,
  );
  fig("gallery.progressive_total_kb", resizedProg / 1000, kb(resizedProg));
  fig("gallery.progressive_saving_pct", -change(resizedProg, resized), pct(-change(resizedProg, resized)));
  const t = (bytes: number, mbps: number) => ((bytes * 8) / (mbps * 1e6)).toFixed(2);
  fig("gallery.10mbps_before_s", t(orig, 10), `${t(orig, 10)} s`);
  fig("gallery.10mbps_after_s", t(resized, 10), `${t(resized, 10)} s`);
  fig("gallery.avg_before_kb", orig / 12 / 1000, kb(orig / 12));
  fig("gallery.avg_after_kb", resized / 12 / 1000, kb(resized / 12));
  const t1 = (bytes: number) => ((bytes * 8) / 1.44e6).toFixed(1);
  fig("gallery.slow4g_before_s", t1(orig), `${t1(orig)} s`);
  fig("gallery.slow4g_after_s", t1(resized), `${t1(resized)} s`);
}

// ---- libjpeg-turbo throughput, memory and storage on the whole corpus (articles 13, 15) ----------------------------
{
  const d = `${WORK}/t`;
  const files = corpus.map(path);
  const loop = (cmd: string) => files.map((f) => cmd.replaceAll("$F", f)).join("\n") + "\n";
  const mp = sum(corpus.map((i) => i.megapixels));
  const modes: [string, string][] = [
    ["decode", loop("djpeg $F > /dev/null")],
    ["baseline", loop("djpeg $F | cjpeg -quality 80 > /dev/null")],
    ["optimize", loop("djpeg $F | cjpeg -quality 80 -optimize > /dev/null")],
    ["progressive", loop("djpeg $F | cjpeg -quality 80 -progressive > /dev/null")],
  ];
  const cpuS: Record<string, number> = {};
  for (const [name, script] of modes) {
    const s = await cpuMedian(script, d, 3);
    cpuS[name] = s;
    fig(`throughput.${name}.cpu_s`, s, `${s.toFixed(2)}`);
    fig(`throughput.${name}.mp_per_s`, mp / s, `${Math.round(mp / s)}`);
  }
  for (const [name, args] of [["baseline", ""], ["optimize", "-optimize"], ["progressive", "-progressive"]] as const) {
    const total = Number(
      await shText(
        `for f in ${
          files.join(" ")
        }; do djpeg $f | cjpeg -quality 80 ${args} | wc -c; done | awk '{s+=$1} END {print s}'`,
      ),
    );
    fig(`throughput.${name}.output_mb`, total / 1e6, mb(total));
  }
  // Peak memory on the largest photo.
  const f = path(kleiber);
  await sh(`djpeg -pnm ${f} > ${d}/k.ppm`);
  const mem = async (script: string) => (await cpu(script, d)).maxRssKb * 1024;
  const m = {
    decode: await mem(`djpeg ${f} > /dev/null\n`),
    baseline: await mem(`cjpeg -quality 80 ${d}/k.ppm > /dev/null\n`),
    optimize: await mem(`cjpeg -quality 80 -optimize ${d}/k.ppm > /dev/null\n`),
    progressive: await mem(`cjpeg -quality 80 -progressive ${d}/k.ppm > /dev/null\n`),
    resize: await mem(`${CONVERT} ${f} -resize 1600x ${d}/r.jpg\n`),
  };
  for (const [k, v] of Object.entries(m)) fig(`memory.${k}_mb`, v / 1e6, `${Math.round(v / 1e6)} MB`);
  // Storage at three qualities, full resolution, cjpeg defaults.
  for (const q of [95, 85, 75]) {
    const total = Number(
      await shText(
        `for f in ${files.join(" ")}; do djpeg $f | cjpeg -quality ${q} | wc -c; done | awk '{s+=$1} END {print s}'`,
      ),
    );
    const opt = Number(
      await shText(
        `for f in ${
          files.join(" ")
        }; do djpeg $f | cjpeg -quality ${q} -optimize | wc -c; done | awk '{s+=$1} END {print s}'`,
      ),
    );
    fig(`storage.q${q}.total_mb`, total / 1e6, mb(total, 1));
    fig(`storage.q${q}.per_photo_mb`, total / corpus.length / 1e6, mb(total / corpus.length));
    fig(`storage.q${q}.bits_per_pixel`, (total * 8) / (mp * 1e6), ((total * 8) / (mp * 1e6)).toFixed(2));
    fig(`storage.q${q}.optimize_trim_pct`, -change(opt, total), pct(-change(opt, total), 1));
  }
  fig("storage.original.per_photo_mb", corpusBytes / corpus.length / 1e6, mb(corpusBytes / corpus.length));
  fig("storage.original.bits_per_pixel", (corpusBytes * 8) / (mp * 1e6), ((corpusBytes * 8) / (mp * 1e6)).toFixed(2));
}

// ---- our engine, through codecs/mod.ts (landing page, articles 7, 13, 19, product statements) -----------------------
{
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 600_000, maxQueue: 100, maxPixels: 100e6 });
  const run = (bytes: Uint8Array, settings: Partial<CompressSettings>) =>
    pool.compress(bytes.slice(), { ...DEFAULT_SETTINGS, ...settings });
  try {
    await run(corpus[0]!.bytes, {}); // warm-up: compiles the WASM modules
    await run(corpus[0]!.bytes, { encoder: "jpegli" }); // and jpegli's
    const savings: { image: CorpusImage; saving: number }[] = [];
    const perMp: number[] = [], codecPerMp: number[] = [];
    const c420: number[] = [], c444: number[] = [], c422: number[] = [];
    // The other encoder at the same defaults, right after MozJPEG on the same photo (same worker, same load).
    const mozEncodePerMp: number[] = [], jpegliEncodePerMp: number[] = [], jpegliCodecPerMp: number[] = [];
    const encodeSpeedup: number[] = [];
    for (const image of corpus) {
      const r = await run(image.bytes, {});
      savings.push({ image, saving: 100 * (1 - r.compressedSize / r.originalSize) });
      perMp.push(r.timings.totalMs / image.megapixels);
      codecPerMp.push((r.timings.decodeMs + r.timings.encodeMs) / image.megapixels);
      c420.push(r.compressedSize);
      c444.push((await run(image.bytes, { chromaSubsampling: "4:4:4" })).compressedSize);
      c422.push((await run(image.bytes, { chromaSubsampling: "4:2:2" })).compressedSize);
      raw("engine_defaults", image.name, "saving_pct", savings.at(-1)!.saving);
      raw("engine_defaults", image.name, "kept_original", String(r.keptOriginal));
      raw("engine_defaults", image.name, "total_ms_per_mp", perMp.at(-1)!);
      const j = await run(image.bytes, { encoder: "jpegli" });
      if (!j.keptOriginal && j.encoder !== "jpegli") throw new Error(`${image.name}: made by ${j.encoder}, not jpegli`);
      mozEncodePerMp.push(r.timings.encodeMs / image.megapixels);
      jpegliEncodePerMp.push(j.timings.encodeMs / image.megapixels);
      jpegliCodecPerMp.push((j.timings.decodeMs + j.timings.encodeMs) / image.megapixels);
      encodeSpeedup.push(r.timings.encodeMs / j.timings.encodeMs);
      raw("engine_defaults", image.name, "mozjpeg_encode_ms_per_mp", mozEncodePerMp.at(-1)!);
      raw("engine_defaults", image.name, "jpegli_encode_ms_per_mp", jpegliEncodePerMp.at(-1)!);
      raw("engine_defaults", image.name, "jpegli_bytes_vs_mozjpeg", j.compressedSize / r.compressedSize);
    }
    const top = savings.reduce((a, b) => (b.saving > a.saving ? b : a));
    fig(
      "engine.largest_saving_pct",
      Math.floor(top.saving),
      `${Math.floor(top.saving)}%`,
      `landing copy; ${top.image.name}`,
    );
    fig("engine.largest_saving_photo", top.image.name, label(top.image.name), "landing copy");
    fig("engine.median_saving_pct", median(savings.map((s) => s.saving)), pct(median(savings.map((s) => s.saving))));
    fig(
      "engine.job_ms_per_mp",
      median(perMp),
      `${Math.round(median(perMp))} ms`,
      "median, whole job: decode, encode, measure",
    );
    fig(
      "engine.codec_ms_per_mp",
      median(codecPerMp),
      `${Math.round(median(codecPerMp))} ms`,
      "median, decode + encode",
    );
    const r444 = corpus.map((_, i) => change(c444[i]!, c420[i]!));
    const r422 = corpus.map((_, i) => change(c422[i]!, c444[i]!));
    fig("engine.444_vs_420_median_pct", median(r444), pct(median(r444)));
    fig("engine.422_vs_444_median_pct", median(r422), sizeChange(median(r422)));
    // Encode times include the job's small thumbnail (a MozJPEG encode of a few milliseconds) for both.
    fig(
      "engine.mozjpeg_encode_ms_per_mp",
      median(mozEncodePerMp),
      `${Math.round(median(mozEncodePerMp))} ms`,
      "median, encode only, defaults",
    );
    fig(
      "engine.jpegli_encode_ms_per_mp",
      median(jpegliEncodePerMp),
      `${Math.round(median(jpegliEncodePerMp))} ms`,
      "median, encode only, defaults with encoder jpegli",
    );
    fig(
      "engine.jpegli_codec_ms_per_mp",
      median(jpegliCodecPerMp),
      `${Math.round(median(jpegliCodecPerMp))} ms`,
      "median, decode + encode, defaults with encoder jpegli",
    );
    fig(
      "engine.jpegli_encode_speedup",
      median(encodeSpeedup),
      `${median(encodeSpeedup).toFixed(1)} times`,
      "median per photo of MozJPEG's encode time over jpegli's, defaults",
    );

    // MozJPEG (our engine) against libjpeg-turbo at the same quality number, from the same 1,600 px master.
    const ratio: number[] = [], mozSsim: number[] = [], matchedQ: number[] = [], matchedRatio: number[] = [];
    for (const image of distinct) {
      const masterFile = `${WORK}/t/master.jpg`;
      await cjpeg(r1600.get(image.name)!, masterFile, "-quality 100 -sample 1x1");
      const master = await Deno.readFile(masterFile);
      const masterGray = await grayOfJpeg(masterFile);
      await sh(`djpeg -pnm ${masterFile} > ${WORK}/t/master.ppm`);
      const ref = await cjpeg(`${WORK}/t/master.ppm`, `${WORK}/t/ref.jpg`, "-quality 80 -optimize");
      const refSsim = ssim(masterGray, await grayOfJpeg(`${WORK}/t/ref.jpg`));
      const score = async (q: number) => {
        const r = await run(master, { quality: q, stripMetadata: true });
        await Deno.writeFile(`${WORK}/t/moz.jpg`, r.bytes);
        return { bytes: r.compressedSize, ssim: ssim(masterGray, await grayOfJpeg(`${WORK}/t/moz.jpg`)) };
      };
      const at80 = await score(80);
      ratio.push(at80.bytes / ref);
      mozSsim.push(at80.ssim - refSsim);
      const m = await lowestPassing(60, 100, async (q) => {
        const s = await score(q);
        return { pass: s.ssim >= refSsim, value: s.bytes };
      });
      if (m) {
        matchedQ.push(m.setting);
        matchedRatio.push(m.value / ref);
      }
      raw("mozjpeg_vs_cjpeg", image.name, "size_ratio_q80", ratio.at(-1)!);
      raw("mozjpeg_vs_cjpeg", image.name, "ssim_diff_q80", mozSsim.at(-1)!);
      raw("mozjpeg_vs_cjpeg", image.name, "matched_quality", m?.setting ?? "none");
    }
    fig("mozjpeg.q80_median_saving_pct", 100 * (1 - median(ratio)), pct(100 * (1 - median(ratio))));
    fig("mozjpeg.q80_median_ssim_diff", median(mozSsim), median(mozSsim).toFixed(3));
    fig("mozjpeg.matched_quality_range", `${min(matchedQ)}-${max(matchedQ)}`, `${min(matchedQ)}-${max(matchedQ)}`);
    fig(
      "mozjpeg.matched_median_change_pct",
      100 * (median(matchedRatio) - 1),
      sizeChange(100 * (median(matchedRatio) - 1)),
    );
    fig("mozjpeg.matched_count", matchedQ.length, `${matchedQ.length} of ${distinct.length}`);
  } finally {
    await pool.close();
  }
}

// ---- jpegli against MozJPEG at the same SSIMULACRA 2 (articles 7, 19) --------------------------------------------
// Each encoder's smallest file scoring at least the auto threshold (80) on the engine's own metric, from the
// same 1,600 px master as above: the lowest quality setting that passes, by bisection, with the fixed-quality
// path's settings otherwise (4:2:0, sequential; MozJPEG with its default tables and trellis). The two
// encoders run side by side on a pool of two workers; only bytes and scores are read here, not times.
{
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 600_000, maxQueue: 100, maxPixels: 100e6 });
  const goal = AUTO_SCORE_THRESHOLD;
  try {
    const floor = (master: Uint8Array, encoder: Encoder) =>
      lowestPassing(20, 100, async (quality) => {
        const r = await pool.compress(master.slice(), { ...DEFAULT_SETTINGS, encoder, quality, stripMetadata: true });
        if (!r.keptOriginal && r.encoder !== encoder) throw new Error(`made by ${r.encoder}, not ${encoder}`);
        return { pass: r.quality!.ssimulacra2 >= goal, value: { bytes: r.compressedSize, kept: r.keptOriginal } };
      });
    const changes: { image: CorpusImage; change: number }[] = [];
    let mozTotal = 0, jpegliTotal = 0;
    for (const image of distinct) {
      const masterFile = `${WORK}/t/master-jpegli.jpg`;
      await cjpeg(r1600.get(image.name)!, masterFile, "-quality 100 -sample 1x1");
      const master = await Deno.readFile(masterFile);
      const [moz, jl] = await Promise.all([floor(master, "mozjpeg"), floor(master, "jpegli")]);
      if (!moz || !jl || moz.value.kept || jl.value.kept) {
        throw new Error(
          `${image.name}: no encoded file scores ${goal} (MozJPEG ${moz?.setting}, jpegli ${jl?.setting})`,
        );
      }
      changes.push({ image, change: change(jl.value.bytes, moz.value.bytes) });
      mozTotal += moz.value.bytes;
      jpegliTotal += jl.value.bytes;
      raw("jpegli_vs_mozjpeg_80", image.name, "mozjpeg_quality", moz.setting);
      raw("jpegli_vs_mozjpeg_80", image.name, "mozjpeg_bytes", moz.value.bytes);
      raw("jpegli_vs_mozjpeg_80", image.name, "jpegli_quality", jl.setting);
      raw("jpegli_vs_mozjpeg_80", image.name, "jpegli_bytes", jl.value.bytes);
      raw("jpegli_vs_mozjpeg_80", image.name, "jpegli_change_pct", changes.at(-1)!.change);
    }
    const values = changes.map((c) => c.change);
    const smaller = changes.filter((c) => c.change < 0);
    const best = changes.reduce((a, b) => (b.change < a.change ? b : a));
    const worst = changes.reduce((a, b) => (b.change > a.change ? b : a));
    fig("jpegli.matched80_median_change_pct", median(values), sizeChange(median(values)), "jpegli against MozJPEG");
    fig(
      "jpegli.matched80_total_change_pct",
      change(jpegliTotal, mozTotal),
      sizeChange(change(jpegliTotal, mozTotal)),
      "all distinct photos together",
    );
    fig("jpegli.matched80_smaller_count", smaller.length, `${smaller.length} of ${distinct.length}`);
    fig(
      "jpegli.matched80_best",
      `${label(best.image.name)} ${best.change.toFixed(1)}`,
      sizeChange(best.change),
      label(best.image.name),
    );
    fig(
      "jpegli.matched80_worst",
      `${label(worst.image.name)} ${worst.change.toFixed(1)}`,
      sizeChange(worst.change),
      label(worst.image.name),
    );
  } finally {
    await pool.close();
  }
}

// ---- write -------------------------------------------------------------------------------------------------------
const cpuModel = await shText("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2");
const header = [
  "# Figures quoted by the articles, written by `deno task bench:articles` (bench/articles/figures.ts). Do not edit.",
  `# Corpus: ${corpus.length} photos built by ../shared/corpus/make-corpus.sh (sha256-checked); KB/MB are decimal.`,
  `# Tools (Debian 12): ${
    Object.entries(versions).map(([p, v]) => `${p} ${v}`).join(", ")
  }; engine: codecs/mod.ts defaults (MozJPEG; jpegli where a key names it).`,
  "# Settings: cjpeg -optimize unless a key says otherwise; cwebp default method 4; avifenc -s 6 -j 1 -y 420 (aom,",
  "# end-usage=q); cjxl -e 7, one thread; SSIM: luma, 11x11 Gaussian window, no downsampling (bench/articles/lib.ts).",
  `# Machine: ${cpuModel}, ${navigator.hardwareConcurrency} CPUs; times are CPU time (user + system), median of 3 runs.`,
  "key\ttext\tvalue\tnote",
];
const lines = figures.map((f) => [f.key, f.text, String(f.value), f.note].join("\t"));
const target = QUICK ? new URL(`file://${WORK}/`) : HERE;
await Deno.writeTextFile(new URL("figures.tsv", target), [...header, ...lines].join("\n") + "\n");
await Deno.writeTextFile(new URL("per-image.tsv", target), perImage.join("\n") + "\n");
console.log(`wrote ${figures.length} figures to ${new URL("figures.tsv", target).pathname}`);

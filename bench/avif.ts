/**
 * AVIF output (issue 30, item 3), on the corpus at each photo's own size:
 *
 * - the encoder's time at the server's speed (balanced mode) against native libaom through sharp 0.34.5
 *   (libvips → libheif → libaom; bench-only) at the same libaom speed (libvips' `effort` is 9 − speed), on the
 *   same upright pixels, 4:2:0, one thread each, at the quality auto lands on most often (77);
 * - AVIF on auto (SSIMULACRA 2 ≥ 80) against JPEG on auto, both through the pool, photo by photo: bytes, the
 *   scores reached (the reference tool's too when it is built), job time and full-size probes;
 * - the encoder's WASM heap per pixel (it never shrinks: what a worker holds after the largest photo).
 *
 * `deno task bench avif` runs this section alone.
 */
import process from "node:process";
import sharp from "sharp";
import { avif } from "../codecs/avif/codec.ts";
import { SPEED_BY_MODE } from "../codecs/avif/options.ts";
import { type CompressResult, createCodecPool } from "../codecs/mod.ts";
import { releasePixels } from "../codecs/image/release.ts";
import { heapHighWaterBytes, resetHeapHighWater, wasmHeapBytes } from "../codecs/wasm.ts";
import { type CompressSettings, DEFAULT_SETTINGS } from "../contract/settings.ts";
import type { CorpusImage } from "./corpus.ts";
import { samples, uprightPhoto } from "./pixels.ts";
import { referenceScorer, referenceTool } from "./reference-metric.ts";
import { figure, median, onLanes } from "./report.ts";

const SPEED = SPEED_BY_MODE[DEFAULT_SETTINGS.mode];
const TIMED_QUALITY = 77;
const AVIF_AUTO: CompressSettings = { ...DEFAULT_SETTINGS, format: "avif", target: { kind: "auto" } };
const JPEG_AUTO: CompressSettings = { ...DEFAULT_SETTINGS, target: { kind: "auto" } };

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Our encoder and native libaom on the same pixels, smallest photo first; the heap figure is the largest's encode. */
async function encodeTimes(corpus: CorpusImage[]): Promise<void> {
  sharp.concurrency(1);
  sharp.cache(false);
  const photos = [...corpus].sort((a, b) => a.megapixels - b.megapixels);
  const ms = { wasm: 0, wasmCpu: 0, native: 0, nativeCpu: 0 };
  let megapixels = 0, heapBefore = 0;
  // The first photo twice: its first pass compiles and instantiates the module, untimed.
  for (const [n, image] of [photos[0]!, ...photos].entries()) {
    const { pixels, grayscale } = await uprightPhoto(image.bytes);
    // The largest photo's encode grows the heap most; the instance is dropped after it (codec-instance.ts).
    if (n === photos.length) heapBefore = wasmHeapBytes(), resetHeapHighWater();
    let t = performance.now(), c = cpuMs();
    await avif.encode(pixels, DEFAULT_SETTINGS, TIMED_QUALITY, { grayscale, scoreGoal: false });
    const wasm = performance.now() - t, wasmCpu = cpuMs() - c;
    const raw = { width: pixels.width, height: pixels.height, channels: grayscale ? 1 as const : 3 as const };
    const rgb = samples(pixels, grayscale);
    t = performance.now(), c = cpuMs();
    await sharp(rgb, { raw }).avif({ quality: TIMED_QUALITY, effort: 9 - SPEED, chromaSubsampling: "4:2:0" })
      .toBuffer();
    const native = performance.now() - t, nativeCpu = cpuMs() - c;
    releasePixels(pixels);
    if (n === 0) continue;
    Object.assign(ms, {
      wasm: ms.wasm + wasm,
      wasmCpu: ms.wasmCpu + wasmCpu,
      native: ms.native + native,
      nativeCpu: ms.nativeCpu + nativeCpu,
    });
    megapixels += image.megapixels;
  }
  const largest = photos.at(-1)!;
  figure(
    `avif_encode_ms_per_mp_speed${SPEED}`,
    ms.wasm / megapixels,
    `ms/MP (WASM, one thread, q${TIMED_QUALITY} 4:2:0)`,
  );
  figure("avif_encode_cpu_ms_per_mp", ms.wasmCpu / megapixels, "CPU ms/MP");
  figure(
    `avif_native_libaom_ms_per_mp_speed${SPEED}`,
    ms.native / megapixels,
    `ms/MP (sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}, effort ${9 - SPEED}; CPU ${
      (ms.nativeCpu / megapixels).toFixed(1)
    })`,
  );
  figure("avif_encode_time_vs_native_libaom", ms.wasm / ms.native, "x");
  figure(
    "avif_encoder_heap_bytes_per_pixel",
    (heapHighWaterBytes() - heapBefore) / (largest.megapixels * 1e6),
    `B/px (WASM heap grown by ${largest.name}, ${largest.megapixels.toFixed(1)} MP)`,
  );
}

/** Per photo on 2 workers, JPEG auto then AVIF auto back to back on one lane. */
async function autos(corpus: CorpusImage[]): Promise<{ jpeg: CompressResult; avif: CompressResult }[]> {
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 900_000, maxQueue: 100, maxPixels: 100e6 });
  try {
    const smallest = corpus.reduce((a, b) => (b.megapixels < a.megapixels ? b : a));
    await Promise.all([0, 1].map(() => pool.compress(smallest.bytes.slice(), AVIF_AUTO)));
    return await onLanes(corpus.length, 2, async (i) => ({
      jpeg: await pool.compress(corpus[i]!.bytes.slice(), JPEG_AUTO),
      avif: await pool.compress(corpus[i]!.bytes.slice(), AVIF_AUTO),
    }));
  } finally {
    await pool.close();
  }
}

/** The reference tool's score of each AVIF (decoded by our decoder), or nulls without the tool. */
async function referenceScores(corpus: CorpusImage[], outputs: Uint8Array[]): Promise<(number | null)[]> {
  const tool = await referenceTool();
  if (!tool) return outputs.map(() => null);
  const scores: number[] = [];
  for (const [i, image] of corpus.entries()) {
    const photo = await uprightPhoto(image.bytes);
    const scorer = await referenceScorer(tool, photo);
    try {
      scores.push(await scorer.score(await avif.decode(outputs[i]!)));
    } finally {
      await scorer.close();
      releasePixels(photo.pixels);
    }
  }
  return scores;
}

export async function avifBench(corpus: CorpusImage[]): Promise<void> {
  await encodeTimes(corpus);
  const results = await autos(corpus);
  const reference = await referenceScores(corpus, results.map((r) => r.avif.bytes));
  for (const [i, image] of corpus.entries()) {
    const { jpeg, avif } = results[i]!;
    const ref = reference[i] === null ? "" : ` ref ${reference[i]!.toFixed(2)}`;
    console.log(
      `  ${image.name}: jpeg auto ${jpeg.encoder ?? "original"} q${jpeg.chosenQuality} ${jpeg.compressedSize} B` +
        ` score ${jpeg.quality!.ssimulacra2.toFixed(2)} | avif auto q${avif.chosenQuality} ${avif.compressedSize} B` +
        ` (${(100 * avif.compressedSize / jpeg.compressedSize).toFixed(1)}%) score ${
          avif.quality!.ssimulacra2.toFixed(2)
        }${ref}, ${avif.timings.probes} probes + ${avif.timings.proxyProbes} mosaic, ` +
        `${(avif.timings.totalMs / 1000).toFixed(1)} s (jpeg ${(jpeg.timings.totalMs / 1000).toFixed(1)} s)`,
    );
  }
  const avifBytes = sum(results.map((r) => r.avif.compressedSize));
  const jpegBytes = sum(results.map((r) => r.jpeg.compressedSize));
  figure("avif_auto_bytes_vs_jpeg_auto", (100 * avifBytes) / jpegBytes, "% at the photos' own size (target <= 85)");
  figure(
    "avif_auto_bytes_vs_jpeg_auto_median",
    median(results.map((r) => (100 * r.avif.compressedSize) / r.jpeg.compressedSize)),
    "% per photo",
  );
  const scores = results.map((r) => r.avif.quality!.ssimulacra2);
  figure("avif_auto_score_min", Math.min(...scores), "(engine; target >= 80)");
  figure("avif_auto_score_median", median(scores));
  figure("avif_auto_score_max", Math.max(...scores));
  figure("avif_auto_scores_80_to_83", `${scores.filter((s) => s >= 80 && s <= 83).length}/${scores.length}`);
  const refs = reference.filter((s) => s !== null);
  if (refs.length) figure("avif_auto_reference_score_min", Math.min(...refs), "(reference tool on our decode)");
  figure(
    "avif_auto_time_vs_jpeg_auto",
    sum(results.map((r) => r.avif.timings.totalMs)) / sum(results.map((r) => r.jpeg.timings.totalMs)),
    "x (job time in the workers)",
  );
  figure("avif_auto_ms_per_mp", sum(results.map((r) => r.avif.timings.totalMs)) / sum(corpus.map((c) => c.megapixels)));
  figure("avif_auto_probes_mean", sum(results.map((r) => r.avif.timings.probes)) / results.length, "full-size probes");
  figure(
    "avif_auto_mosaic_probes_mean",
    sum(results.map((r) => r.avif.timings.proxyProbes)) / results.length,
    "mosaic probes",
  );
}

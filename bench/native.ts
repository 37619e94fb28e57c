/**
 * The fixed-quality path against native MozJPEG (issue 13, item 5), in one run on the same photos:
 * native = sharp 0.34 (libvips with MozJPEG, prebuilt for linux-x64 from npm; a bench-only dependency)
 * decoding and encoding each photo at the product's default settings on 2 lanes; the product = the
 * whole fixed path (decode, orientation, thumbnail, encode) end to end through the HTTP API with 2
 * workers, until every result is downloaded (each score is measured after its result, when a worker is
 * idle: that time is printed apart). The breakdown is per megapixel and per lane (wall time × 2 lanes ÷ megapixels):
 * the pipeline's stages from one in-process pass on this thread, then what the pool adds over that
 * pass (two workers side by side, messaging, worker starts) and what HTTP adds over the raw pool.
 * Then jpegli's fixed path against MozJPEG's through the same pool, and each encoder alone against
 * native encoders on the same pixels (`encodeTimes`).
 */
import sharp from "sharp";
import { compressImage } from "../codecs/pipeline/compress.ts";
import { decodeJpegPixels } from "../codecs/jpeg/decode.ts";
import { encodeJpegPixels } from "../codecs/jpeg/encode.ts";
import { thumbnailOptions } from "../codecs/jpeg/options.ts";
import { releasePixels } from "../codecs/image/release.ts";
import { thumbnailPixels } from "../codecs/image/thumbnail.ts";
import { CODECS } from "../codecs/registry.ts";
import { type CompressSettings, DEFAULT_SETTINGS, ENCODERS } from "../contract/settings.ts";
import { cjpegArgs, ensureCjpeg } from "./cjpeg.ts";
import type { CorpusImage } from "./corpus.ts";
import { httpEndToEnd } from "./http.ts";
import { pnm, samples, uprightPhoto } from "./pixels.ts";
import { figure, onLanes } from "./report.ts";
import { warmPool } from "./warm-pool.ts";

const LANES = 2;

/**
 * The product's defaults (codecs/jpeg/options.ts: q80, balanced, sequential, 4:2:0, optimised Huffman,
 * MozJPEG tables) in sharp's words. sharp's `mozjpeg: true` would also force progressive output with
 * optimised scans, so its parts are spelled out instead. Left different: libvips keeps trellis EOB
 * optimisation (`trellis_opt_zero`) off and has no switch for it, and drops every metadata segment
 * (the product keeps the ICC profile); the output byte ratio printed below shows how close they end up.
 */
const NATIVE_OPTIONS: sharp.JpegOptions = {
  quality: 80,
  progressive: false,
  chromaSubsampling: "4:2:0",
  optimiseCoding: true,
  trellisQuantisation: true,
  overshootDeringing: true,
  optimiseScans: false,
  quantisationTable: 3,
};

/** Each photo decoded, auto-oriented (as the product does) and encoded; `lanes` photos at a time. */
async function nativeMozjpeg(corpus: CorpusImage[], lanes: number): Promise<{ seconds: number; bytes: number }> {
  sharp.concurrency(1); // one libvips thread per photo: a lane is one thread, as a codec worker is
  sharp.cache(false);
  const t = performance.now();
  const sizes = await onLanes(
    corpus.length,
    lanes,
    async (i) => (await sharp(corpus[i]!.bytes).rotate().jpeg(NATIVE_OPTIONS).toBuffer()).length,
  );
  return { seconds: (performance.now() - t) / 1000, bytes: sizes.reduce((a, b) => a + b, 0) };
}

async function rawPool(
  corpus: CorpusImage[],
  workers: number,
  settings: CompressSettings = DEFAULT_SETTINGS,
): Promise<{ seconds: number; bytes: number }> {
  const pool = await warmPool({ size: workers, jobTimeoutMs: 600_000, maxQueue: 1000, maxPixels: 100e6 }, corpus);
  const t = performance.now();
  // As the server runs the fixed path: the result first, its score later.
  const results = await Promise.all(
    corpus.map((image) => pool.compress(image.bytes.slice(), settings, { deferScore: true })),
  );
  const seconds = (performance.now() - t) / 1000;
  await pool.close();
  return { seconds, bytes: results.reduce((sum, r) => sum + r.compressedSize, 0) };
}

/** Stage times of the fixed path, in-process on this thread, summed over the corpus (ms). */
async function stageTimes(corpus: CorpusImage[]) {
  const sums = { decode: 0, encode: 0, thumbnail: 0, measure: 0, total: 0 };
  for (const image of corpus) {
    const r = await compressImage(new AbortController().signal, {
      bytes: image.bytes,
      settings: DEFAULT_SETTINGS,
      maxPixels: 100e6,
    });
    sums.decode += r.timings.decodeMs;
    sums.encode += r.timings.encodeMs; // includes the thumbnail, taken apart below
    sums.measure += r.timings.measureMs;
    sums.total += r.timings.totalMs;
    const pixels = await decodeJpegPixels(image.bytes);
    const t = performance.now();
    await encodeJpegPixels(thumbnailPixels(pixels), thumbnailOptions());
    sums.thumbnail += performance.now() - t;
  }
  sums.encode -= sums.thumbnail;
  return sums;
}

/**
 * Encoding alone, summed over the corpus (ms), one photo at a time on this thread, every encoder on the same
 * upright pixels at q80, sequential, 4:2:0: ours (WASM, the product's defaults, as a fixed-quality job
 * encodes) and native: `cjpeg -quality 80 -optimize -sample 2x2` (libjpeg-turbo; a process reading a PNM
 * file, its start and the file's parse included) and MozJPEG through sharp from raw pixels (NATIVE_OPTIONS).
 * The first photo runs twice, untimed the first time: modules compiled, libvips loaded.
 */
async function encodeTimes(corpus: CorpusImage[]) {
  await ensureCjpeg();
  sharp.concurrency(1);
  sharp.cache(false);
  const dir = await Deno.makeTempDir({ prefix: "bench-encode-" });
  const ms = { mozjpeg: 0, jpegli: 0, libjpeg_turbo: 0, native_mozjpeg: 0 };
  try {
    for (const [n, image] of [corpus[0]!, ...corpus].entries()) {
      const { pixels, grayscale } = await uprightPhoto(image.bytes);
      const time = async (key: keyof typeof ms, encode: () => Promise<unknown>) => {
        const t = performance.now();
        await encode();
        if (n > 0) ms[key] += performance.now() - t;
      };
      for (const id of ENCODERS) {
        const settings = { ...DEFAULT_SETTINGS, encoder: id };
        await time(id, () => CODECS[id].encode(pixels, settings, 80, { grayscale, scoreGoal: false }));
      }
      const input = `${dir}/in.pnm`, args = cjpegArgs(80, true, "2x2");
      await Deno.writeFile(input, pnm(pixels, grayscale));
      await time("libjpeg_turbo", async () => {
        const run = await new Deno.Command("cjpeg", { args: [...args, "-outfile", `${dir}/out.jpg`, input] }).output();
        if (!run.success) throw new Error("cjpeg failed");
      });
      const raw = { width: pixels.width, height: pixels.height, channels: grayscale ? 1 as const : 3 as const };
      const rgb = samples(pixels, grayscale);
      await time("native_mozjpeg", () => sharp(rgb, { raw }).jpeg(NATIVE_OPTIONS).toBuffer());
      releasePixels(pixels);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return ms;
}

export async function fixedPathVsNative(corpus: CorpusImage[], workers = LANES): Promise<void> {
  const megapixels = corpus.reduce((sum, i) => sum + i.megapixels, 0);
  /** Wall seconds as per-lane milliseconds per megapixel. */
  const perLane = (seconds: number) => (1000 * seconds * LANES) / megapixels;
  await nativeMozjpeg(corpus.slice(0, 2), LANES); // load libvips
  // Native before and after the product's runs; the product is compared with their mean.
  const nativeBefore = await nativeMozjpeg(corpus, LANES);
  const pool = await rawPool(corpus, workers);
  const jpegliPool = await rawPool(corpus, workers, { ...DEFAULT_SETTINGS, encoder: "jpegli" });
  const http = await httpEndToEnd(corpus, workers, "bench-fixed-path");
  const nativeAfter = await nativeMozjpeg(corpus, LANES);
  const native = (nativeBefore.seconds + nativeAfter.seconds) / 2;
  const stages = await stageTimes(corpus);
  const perMp = (ms: number) => ms / megapixels;
  figure(
    "native_mozjpeg_2_lanes",
    perLane(native),
    `ms/MP per lane (sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}; runs ${
      perLane(nativeBefore.seconds).toFixed(1)
    } and ${perLane(nativeAfter.seconds).toFixed(1)})`,
  );
  figure("native_mozjpeg_bytes_vs_product", nativeBefore.bytes / pool.bytes, "ratio (same settings: about 1)");
  figure(`fixed_path_http_${workers}_workers`, perLane(http.seconds), "ms/MP per lane");
  figure("fixed_path_time_vs_native_mozjpeg", http.seconds / native, "x (target <= 1.5; results downloaded)");
  figure(
    "fixed_path_scores_ready_vs_native_mozjpeg",
    http.scoredSeconds / native,
    "x (every deferred score arrived too)",
  );
  figure("fixed_path_pool_time_vs_native_mozjpeg", pool.seconds / native, "x (raw pool, no HTTP)");
  figure("fixed_path_ms_per_mp_decode", perMp(stages.decode), "(in-process, one thread; includes orientation)");
  figure("fixed_path_ms_per_mp_encode", perMp(stages.encode));
  figure("fixed_path_ms_per_mp_thumbnail", perMp(stages.thumbnail));
  figure("fixed_path_ms_per_mp_measure", perMp(stages.measure), "(after the result: decoding the output, comparing)");
  figure(
    "fixed_path_ms_per_mp_other",
    perMp(stages.total - stages.decode - stages.encode - stages.thumbnail - stages.measure),
    "(header, metadata, copies)",
  );
  figure(
    "fixed_path_ms_per_mp_pool_overhead",
    perLane(pool.seconds) - perMp(stages.total - stages.measure),
    `(${workers} workers side by side over one thread in-process)`,
  );
  figure("fixed_path_ms_per_mp_http", perLane(http.seconds - pool.seconds), "(over the raw pool)");
  figure(
    "jpegli_fixed_time_vs_mozjpeg",
    jpegliPool.seconds / pool.seconds,
    `x (raw pool, ${workers} workers, q80 results, scores deferred: ${perLane(jpegliPool.seconds).toFixed(1)} vs ${
      perLane(pool.seconds).toFixed(1)
    } ms/MP per lane; jpegli's bytes ${(jpegliPool.bytes / pool.bytes).toFixed(2)}x; target <= 0.8)`,
  );
  const encode = await encodeTimes(corpus);
  const nativeNote = (ms: number) =>
    `(${(ms / encode.native_mozjpeg).toFixed(2)}x native MozJPEG, ${(ms / encode.libjpeg_turbo).toFixed(2)}x cjpeg)`;
  for (const id of ENCODERS) figure(`encode_ms_per_mp_${id}`, perMp(encode[id]), nativeNote(encode[id]));
  figure(
    "encode_ms_per_mp_native_libjpeg_turbo",
    perMp(encode.libjpeg_turbo),
    "(cjpeg -quality 80 -optimize -sample 2x2, one process per photo)",
  );
  figure("encode_ms_per_mp_native_mozjpeg", perMp(encode.native_mozjpeg), "(sharp, raw pixels in, one thread)");
}

// `deno run -A bench/native.ts`: this section alone.
if (import.meta.main) {
  const { loadCorpus } = await import("./corpus.ts");
  await fixedPathVsNative(await loadCorpus());
}

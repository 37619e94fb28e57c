/**
 * The fixed-quality path against native MozJPEG (issue 13, item 5), in one run on the same photos:
 * native = sharp 0.34 (libvips with MozJPEG, prebuilt for linux-x64 from npm; a bench-only dependency)
 * decoding and encoding each photo at the product's default settings on 2 lanes; the product = the
 * whole fixed path (decode, orientation, thumbnail, encode) end to end through the HTTP API with 2
 * workers, until every result is downloaded (each score is measured after its result, when a worker is
 * idle: that time is printed apart). The breakdown is per megapixel and per lane (wall time × 2 lanes ÷ megapixels):
 * the pipeline's stages from one in-process pass on this thread, then what the pool adds over that
 * pass (two workers side by side, messaging, worker starts) and what HTTP adds over the raw pool.
 */
import sharp from "sharp";
import { createCodecPool } from "../codecs/mod.ts";
import { compressImage } from "../codecs/pipeline/compress.ts";
import { decodeJpegPixels } from "../codecs/jpeg/decode.ts";
import { encodeJpegPixels } from "../codecs/jpeg/encode.ts";
import { thumbnailOptions } from "../codecs/jpeg/options.ts";
import { thumbnailPixels } from "../codecs/image/thumbnail.ts";
import { DEFAULT_SETTINGS } from "../contract/settings.ts";
import type { CorpusImage } from "./corpus.ts";
import { httpEndToEnd } from "./http.ts";
import { figure } from "./report.ts";

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
  let next = 0, bytes = 0;
  const t = performance.now();
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (next < corpus.length) {
      const image = corpus[next++]!;
      const out = await sharp(image.bytes).rotate().jpeg(NATIVE_OPTIONS).toBuffer();
      bytes += out.length; // not `bytes += await …`: that reads `bytes` before the other lane adds to it
    }
  }));
  return { seconds: (performance.now() - t) / 1000, bytes };
}

async function rawPool(corpus: CorpusImage[], workers: number): Promise<{ seconds: number; bytes: number }> {
  const pool = createCodecPool({ size: workers, jobTimeoutMs: 600_000, maxQueue: 1000, maxPixels: 100e6 });
  const t = performance.now();
  // As the server runs the fixed path: the result first, its score later.
  const results = await Promise.all(
    corpus.map((image) => pool.compress(image.bytes.slice(), DEFAULT_SETTINGS, { deferScore: true })),
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

export async function fixedPathVsNative(corpus: CorpusImage[], workers = LANES): Promise<void> {
  const megapixels = corpus.reduce((sum, i) => sum + i.megapixels, 0);
  /** Wall seconds as per-lane milliseconds per megapixel. */
  const perLane = (seconds: number) => (1000 * seconds * LANES) / megapixels;
  await nativeMozjpeg(corpus.slice(0, 2), LANES); // load libvips
  await rawPool(corpus.slice(0, 2), workers); // warm this thread's module cache for the pool's workers
  // Native before and after the product's runs; the product is compared with their mean.
  const nativeBefore = await nativeMozjpeg(corpus, LANES);
  const pool = await rawPool(corpus, workers);
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
}

// `deno run -A bench/native.ts`: this section alone.
if (import.meta.main) {
  const { loadCorpus } = await import("./corpus.ts");
  await fixedPathVsNative(await loadCorpus());
}

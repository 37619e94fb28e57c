/**
 * `deno task bench`: codec and HTTP figures on the public corpus, one `name: value unit` line each.
 * Helpers (corpus loading, figure printing, RSS) live in their own modules for the HTTP bench.
 * `deno task bench quality` (or `avif`, `auto-format`, `jxl`, `batch`, `uplink`): that section alone; `ratios`: the ratio lines
 * (quality, native, resize, web set, a batch on auto against the fixed path and a mixed run's peak).
 * `BENCH_SET=validation` runs on the validation set (scripts/make-validation-set.sh) instead of the public corpus. `BENCH_PHOTOS=A01,A08,A13` (name prefixes) or
 * `BENCH_PHOTOS=4` (the first four) runs on part of the corpus (bench/corpus.ts).
 */
import { decodeJpegPixels } from "../codecs/jpeg/decode.ts";
import { encodeJpegPixels } from "../codecs/jpeg/encode.ts";
import { mozJpegOptions } from "../codecs/jpeg/options.ts";
import { type CompressSettings, DEFAULT_SETTINGS, MODES } from "../contract/settings.ts";
import { qualityBench } from "./quality.ts";
import { avifBench } from "./avif.ts";
import { autoFormatBench } from "./auto-format.ts";
import { jxlBench } from "./jxl.ts";
import { type CorpusImage, loadCorpus } from "./corpus.ts";
import { figure, median, peakRssMb, resetPeakRss } from "./report.ts";
import {
  archiveBatchMemory,
  bigUploadMemory,
  httpThroughput,
  pollingLatency,
  webSetAloneHttp,
  webSetBatchMemory,
} from "./http.ts";
import { healthUnderFloods, pollFloodLatency } from "./hardening.ts";
import { keyFloodBench } from "./key-flood.ts";
import { fixedPathVsNative } from "./native.ts";
import { instancesBench } from "./instances.ts";
import { apiVsWeb } from "./api.ts";
import { cliThroughput } from "./cli.ts";
import { livePreviewBench } from "./live-preview.ts";
import { jobKindMemoryBench, jobMemoryBench } from "./job-memory.ts";
import { resizeBench } from "./resize.ts";
import { setPhoto, webSetBench } from "./web-sets.ts";
import { batchWaitBench } from "./batch-wait.ts";
import { warmPool } from "./warm-pool.ts";
import { uplinkBench } from "./uplink.ts";

const MODE_SAMPLE = 8; // images timed per mode, in-process on one thread
const WORKERS = 2;

async function modeTimings(corpus: CorpusImage[]) {
  // Warm up: compile both WASM modules before anything is timed.
  const first = corpus[0]!;
  await encodeJpegPixels(await decodeJpegPixels(first.bytes), mozJpegOptions(DEFAULT_SETTINGS, 80, false));
  for (const mode of MODES) {
    const perMp: number[] = [];
    let bytes = 0;
    for (const image of corpus.slice(0, MODE_SAMPLE)) {
      const t = performance.now();
      const pixels = await decodeJpegPixels(image.bytes);
      const out = await encodeJpegPixels(pixels, mozJpegOptions({ ...DEFAULT_SETTINGS, mode }, 80, false));
      perMp.push((performance.now() - t) / image.megapixels);
      bytes += out.length;
    }
    figure(`codec_decode_encode_q80_${mode}`, median(perMp), "ms/MP");
    figure(`codec_output_q80_${mode}`, bytes / 1024, "KiB");
  }
}

async function runPool(corpus: CorpusImage[], size: number, settings: (image: CorpusImage) => CompressSettings) {
  const pool = await warmPool({ size, jobTimeoutMs: 600_000, maxQueue: 1000, maxPixels: 100e6 }, corpus);
  const t = performance.now();
  // Largest first, as the server's scheduler hands a batch to its workers (services/scheduling/policy.ts): in the
  // corpus's own order its largest photos come last, and one worker finished them while the other had none.
  const byPixels = [...corpus].sort((a, b) => b.megapixels - a.megapixels);
  const running = new Map(byPixels.map((image) => [image, pool.compress(image.bytes.slice(), settings(image))]));
  const results = await Promise.all(corpus.map((image) => running.get(image)!));
  const seconds = (performance.now() - t) / 1000;
  await pool.close();
  return { results, seconds };
}

/** The corpus at default settings on 1 worker, then on WORKERS (peak RSS reset between), each pool warm. */
async function poolRuns(corpus: CorpusImage[]) {
  const one = await runPool(corpus, 1, () => DEFAULT_SETTINGS);
  await resetPeakRss();
  const two = await runPool(corpus, WORKERS, () => DEFAULT_SETTINGS);
  figure(`pool_${WORKERS}_workers_speedup`, one.seconds / two.seconds, "x (target >= 1.8)");
  return { one, two };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const mean = (values: number[]) => sum(values) / values.length;

const corpus = await loadCorpus();
if (Deno.args[0] === "quality") {
  // `deno task bench quality`: only the perceptual-quality figures.
  await qualityBench(corpus);
  Deno.exit(0);
}
if (Deno.args[0] === "ratios") {
  // `deno task bench ratios`: the ratio lines a reviewer compares across sets (BENCH_SET=validation for the
  // validation set): bytes and scores against cjpeg q80 and the oracle, the fixed path against native
  // MozJPEG, resize against libvips, one photo's web set against its fixed path, a batch on auto against the
  // fixed batch as users wait, the server's peak over a mixed run, 2 workers against 1, and /api/jobs under polls.
  // `--no-quality` leaves out the bytes and scores (the longest part, deterministic for a given tree).
  if (!Deno.args.includes("--no-quality")) await qualityBench(corpus);
  await fixedPathVsNative(corpus, WORKERS);
  await resizeBench(corpus);
  await webSetBench(corpus);
  await webSetAloneHttp(setPhoto(corpus), WORKERS);
  await batchWaitBench(corpus);
  await poolRuns(corpus);
  await pollingLatency(corpus, WORKERS);
  Deno.exit(0);
}
if (Deno.args[0] === "batch") {
  // `deno task bench batch`: the run's photos as one batch on auto against the fixed path, and a mixed run's peak RSS.
  await batchWaitBench(corpus);
  Deno.exit(0);
}
if (Deno.args[0] === "uplink") {
  // `deno task bench uplink`: a batch over an 8 MB/s uplink against the same batch over loopback (ADR 056).
  await uplinkBench(corpus, WORKERS);
  Deno.exit(0);
}
if (Deno.args[0] === "avif") {
  // `deno task bench avif`: only the AVIF figures.
  await avifBench(corpus);
  Deno.exit(0);
}
if (Deno.args[0] === "jxl") {
  // `deno task bench jxl`: only the JPEG XL figures.
  await jxlBench(corpus);
  Deno.exit(0);
}
if (Deno.args[0] === "auto-format") {
  // `deno task bench auto-format`: only format=auto against JPEG auto.
  await autoFormatBench(corpus);
  Deno.exit(0);
}
const inputBytes = sum(corpus.map((i) => i.bytes.length));
const megapixels = sum(corpus.map((i) => i.megapixels));
figure("corpus_images", corpus.length);
figure("corpus_megapixels", megapixels, "MP");

// The pools run first, before anything decodes in this thread: WASM heaps never shrink, and the
// 2-worker peak should count the pool (and the corpus it holds), not the in-process timings below.
const { one, two } = await poolRuns(corpus);
// Not the product's peak: the bench holds the corpus and every result, and hands the pool all photos at once
// without the server's memory budget (a 20 MP job beside an 18 MP one). The server's is mixed_run_server_peak_rss.
figure(`pool_${WORKERS}_workers_peak_rss`, await peakRssMb(), "MB (raw pool, no memory budget; bench process)");
figure("pool_1_worker_throughput", corpus.length / one.seconds, "images/s");
figure("pool_1_worker_throughput_mp", megapixels / one.seconds, "MP/s");
figure(`pool_${WORKERS}_workers_throughput`, corpus.length / two.seconds, "images/s");
figure(`pool_${WORKERS}_workers_throughput_mp`, megapixels / two.seconds, "MP/s");
const outBytes = sum(two.results.map((r) => r.compressedSize));
await modeTimings(corpus);
figure("output_bytes_pct_of_input_q80", (100 * outBytes) / inputBytes, "%");
figure("mean_quality_score_q80", mean(two.results.map((r) => r.quality.score)));
figure("mean_quality_overall_q80", mean(two.results.map((r) => r.quality.overall)));
figure("kept_original_q80", two.results.filter((r) => r.keptOriginal).length, "images");

// SSIMULACRA 2 agreement and cost, auto and equal-score bytes vs cjpeg q80, auto's scores and time.
await qualityBench(corpus);
// AVIF (issue 30): encode time against native libaom, auto's bytes against JPEG auto's, the encoder's heap.
await avifBench(corpus);
// format=auto (issue 30): the smaller of AVIF and JPEG at ≥ 80, against JPEG auto, at own size and 1,280 px.
await autoFormatBench(corpus);
// JPEG XL, losslessly (issue 32): savings, round trips, time against native cjxl/djxl, memory.
await jxlBench(corpus);
figure("peak_rss_since_pool_run", await peakRssMb(), "MB (adds the in-process timings and target searches)");

// Through the HTTP API, each against a fresh server process with the same pool size.
await httpThroughput(corpus, WORKERS, corpus.length / two.seconds);
// A batch over an 8 MB/s uplink: the wait after its last byte, against the same batch over loopback (ADR 056).
await uplinkBench(corpus, WORKERS);
// The fixed path end to end against native MozJPEG (sharp) on the same photos, with a per-MP breakdown.
await fixedPathVsNative(corpus, WORKERS);
await pollingLatency(corpus, WORKERS);
await bigUploadMemory(corpus, WORKERS);
// A batch of 20 web sets (issue 30): the server's peak RSS on the same workers.
await webSetBatchMemory(corpus, WORKERS);
await archiveBatchMemory(corpus, WORKERS);
// One job's real peak against its reservation, photos and hostile shapes (issue 29, ADR 027).
await jobMemoryBench(corpus);
await jobKindMemoryBench(corpus);
// Resize against native libvips, and one photo's default web set against its fixed JPEG path (issue 30).
await resizeBench(corpus);
await webSetBench(corpus);
await webSetAloneHttp(setPhoto(corpus), WORKERS);
// Issue 31: the run's photos as one batch on auto against the fixed path, as users wait, and a mixed run's peak.
await batchWaitBench(corpus);
// Floods one client could send (issue 12): the server must keep answering everyone else.
await healthUnderFloods();
await pollFloodLatency(corpus);
// 200 connections of random API keys for 15 s (issue 29): refused from memory, /healthz p99 <= 200 ms.
await keyFloodBench();
// Several instances on one sqld and one S3 store: 1×3 vs 3×1 workers, polls across them, a SIGKILL's orphans.
await instancesBench(corpus);
// The developer API (issue 23): per-image time against the web path, and the CLI with --concurrency 1 vs 4.
await apiVsWeb(corpus, WORKERS);
await cliThroughput(corpus, WORKERS);

// The Live preview in Chromium (issue 24): a Quality change to the crop on screen and to the full-size figures.
await livePreviewBench();

/**
 * SSIMULACRA 2.1, ours, against the reference tool's scores
 * (../shared/quality/reference-scores.tsv, 84 pairs). The pairs are built by the project's
 * scripts when missing (the corpus, then make-reference.sh: needs Debian's cjpeg and cwebp).
 * 12 pairs here (every photo once, every distortion at least once) to keep the test short;
 * `deno task bench quality` scores all 84.
 */
import { METRIC_WASM, METRIC_WASM_PORTABLE, wasmHeapBytes } from "../../codecs/wasm.ts";
import assert from "node:assert/strict";
import { readImage, referencePairs } from "../../bench/quality-reference.ts";
import {
  compareXyb,
  metricInternals,
  releaseMetricHeap,
  type RgbaPixels,
  spareMetricHeap,
  ssimulacra2,
  type XybPyramid,
  xybPyramid,
} from "../../codecs/quality/ssimulacra2.ts";

const VARIANTS = ["q20-420", "q50-420", "q70-420", "q85-420", "q90-444", "q95-444", "webp-q75"];

Deno.test("SSIMULACRA 2 agrees with the reference tool: every pair within 1.0, mean |Δ| ≤ 0.25", async () => {
  const pairs = await referencePairs();
  assert.equal(pairs.length, 84);
  const images = [...new Set(pairs.map((p) => p.image))];
  const subset = pairs.filter((p) => {
    const i = images.indexOf(p.image), v = VARIANTS.indexOf(p.variant);
    return v === i % 7;
  });
  assert.equal(subset.length, 12);
  const deltas: string[] = [];
  let sum = 0, max = 0;
  const originals = new Map<string, XybPyramid>();
  for (const pair of subset) {
    let original = originals.get(pair.originalPath);
    if (!original) originals.set(pair.originalPath, original = xybPyramid(await readImage(pair.originalPath)));
    using distorted = xybPyramid(await readImage(pair.distortedPath));
    const score = compareXyb(original, distorted).score;
    const delta = Math.abs(score - pair.reference);
    deltas.push(`${pair.image} ${pair.variant}: ours ${score.toFixed(3)} reference ${pair.reference.toFixed(3)}`);
    sum += delta;
    max = Math.max(max, delta);
  }
  for (const pyramid of originals.values()) pyramid.free();
  assert.ok(max <= 1.0, `max |Δ| ${max.toFixed(3)}\n${deltas.join("\n")}`);
  assert.ok(sum / subset.length <= 0.25, `mean |Δ| ${(sum / subset.length).toFixed(3)}`);
});

function crop(image: RgbaPixels, x0: number, y0: number, width: number, height: number): RgbaPixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const from = ((y0 + y) * image.width + x0) * 4;
    data.set(image.data.subarray(from, from + width * 4), y * width * 4);
  }
  return { data, width, height };
}

Deno.test("skipping the maps whose weights are all below 0.01 changes the score by < 0.05", async () => {
  const [pair] = (await referencePairs()).filter((p) => p.image.startsWith("A05") && p.variant === "q90-444");
  const a = crop(await readImage(pair!.originalPath), 700, 500, 640, 480);
  const b = crop(await readImage(pair!.distortedPath), 700, 500, 640, 480);
  const every = ssimulacra2(a, b, 0), fast = ssimulacra2(a, b);
  assert.ok(Math.abs(every - fast) < 0.05, `${every} vs ${fast}`);
});

Deno.test("SSIMULACRA 2 gives 100 for identical images and less for a changed one", () => {
  const width = 64, height = 48;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([(i * 7) % 256, (i * 3) % 256, (i >> 4) % 256, 255], i * 4);
  const image = { data, width, height };
  assert.equal(ssimulacra2(image, image), 100);
  const changed = { data: data.map((v, i) => (i % 4 === 3 ? v : Math.min(255, v + ((i >> 2) % 5)))), width, height };
  assert.ok(ssimulacra2(image, changed) < 100);
});

Deno.test("the recursive Gaussian blurs an impulse to unit gain and sigma 1.5", () => {
  const impulse = new Float32Array(41);
  impulse[20] = 1;
  const out = metricInternals.blurRow(impulse);
  let sum = 0, variance = 0;
  out.forEach((v, i) => {
    sum += v;
    variance += v * (i - 20) ** 2;
  });
  assert.ok(Math.abs(sum - 1) < 1e-5, String(sum));
  assert.ok(Math.abs(Math.sqrt(variance) - 1.5) < 0.01, String(Math.sqrt(variance)));
  assert.ok(Math.abs(out[19]! - out[21]!) < 1e-6);
});

Deno.test("a freed pyramid gives its WASM memory back and cannot be used", () => {
  const width = 300, height = 200;
  const data = new Uint8ClampedArray(width * height * 4).map((_, i) => (i * 37) % 251);
  const image = { data, width, height };
  const before = metricInternals.allocatedBytes();
  const a = xybPyramid(image), b = xybPyramid(image);
  assert.ok(metricInternals.allocatedBytes() > before);
  assert.equal(compareXyb(a, b).score, 100);
  a.free();
  b.free();
  a.free();
  assert.equal(metricInternals.allocatedBytes(), before);
  assert.throws(() => compareXyb(a, b), /freed/);
});

Deno.test("the metric's heap is given back only while no pyramid lives in it, and the next measure starts afresh", () => {
  const width = 1000, height = 700;
  const image = { data: new Uint8ClampedArray(width * height * 4).map((_, i) => (i * 53) % 241), width, height };
  const a = xybPyramid(image);
  assert.equal(releaseMetricHeap(0), false, "a live pyramid keeps the instance");
  const score = ssimulacra2(image, image);
  a.free();
  const heap = wasmHeapBytes();
  assert.equal(releaseMetricHeap(heap), false, "a heap within the limit is kept");
  assert.equal(releaseMetricHeap(0), true);
  assert.ok(wasmHeapBytes() < heap, "its heap no longer counts");
  assert.equal(releaseMetricHeap(0), false, "nothing left to give back");
  assert.equal(ssimulacra2(image, image), score, "a fresh instance measures the same");
});

Deno.test("rebuildable pyramids are spared with the metric's heap before a long encode, and rebuilt to the same score", () => {
  const width = 900, height = 600;
  const original = { data: new Uint8ClampedArray(width * height * 4).map((_, i) => (i * 53) % 241), width, height };
  const distorted = { ...original, data: original.data.map((v, i) => (i % 7 === 0 ? v ^ 8 : v)) };
  const fixed = xybPyramid(original), first = xybPyramid(distorted);
  const expected = compareXyb(fixed, first).score;
  first.free();
  const spareable = xybPyramid(original, undefined, true);
  assert.equal(spareMetricHeap(0), false, "a pyramid that cannot be rebuilt keeps the instance");
  fixed.free();
  const heap = wasmHeapBytes();
  assert.equal(spareMetricHeap(heap), false, "a heap within the limit is kept");
  assert.equal(spareMetricHeap(0), true);
  assert.ok(wasmHeapBytes() < heap, "its heap no longer counts");
  using other = xybPyramid(distorted);
  assert.equal(compareXyb(spareable, other).score, expected, "rebuilt on its next read, in a new instance");
  // Pixels released (detached) cannot rebuild it: it is not spared.
  const released = { ...original, data: original.data.slice() };
  using kept = xybPyramid(released, undefined, true);
  released.data.buffer.transfer(0);
  spareable.free();
  assert.equal(spareMetricHeap(0), false);
  assert.equal(compareXyb(kept, other).score, expected);
  assert.throws(() => spareable.pointer, /freed/);
});

Deno.test("both metric builds round each multiply-add once here, so the fast one computes what the portable one does", async () => {
  const fused = async (url: URL) => {
    const instance = new WebAssembly.Instance(await WebAssembly.compile(await Deno.readFile(url)), {});
    return (instance.exports as { fma_is_fused(x: number): number }).fma_is_fused(1 + 2 ** -12);
  };
  // The relaxed-SIMD build is fused on x86-64 with FMA3 and on 64-bit ARM (this machine and CI); elsewhere
  // ssimulacra2.ts falls back to the portable build, whose emulation is fused everywhere.
  assert.equal(await fused(METRIC_WASM_PORTABLE), 1);
  assert.equal(await fused(METRIC_WASM), 1);
});

Deno.test("the maps, computed four rows per sweep, score every image height as one row at a time did", () => {
  // Scores of the build that computed the vertical blur and the maps one row at a time (commit 31a244a), to the
  // bit: the sweep must keep each output's arithmetic and each row's summing order, at every remainder of the
  // height by four, on the heights where the first rows are past the window's reach, and at every width by four.
  const expected: Array<[number, number, number]> = [
    [23, 8, 91.63170778731634],
    [40, 9, 91.38334973624161],
    [37, 10, 91.58651624651314],
    [64, 11, 91.57551323443401],
    [19, 13, 91.3987866338751],
    [66, 17, 89.8941661372137],
    [130, 67, 80.84648805159993],
    [211, 95, 81.28328237402903],
  ];
  for (const [width, height, score] of expected) {
    const data = new Uint8ClampedArray(width * height * 4);
    let seed = width * 7919 + height;
    const noise = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 255;
    for (let i = 0; i < width * height; i++) {
      const x = i % width, y = Math.floor(i / width);
      data.set([(x * 9 + y * 4) & 255, (x * y) & 255, noise(), 255], i * 4);
    }
    const distorted = data.map((v, i) => (i % 4 === 3 ? v : Math.max(0, Math.min(255, v + (noise() % 23) - 11))));
    assert.equal(ssimulacra2({ data, width, height }, { data: distorted, width, height }), score, `${width}×${height}`);
  }
});

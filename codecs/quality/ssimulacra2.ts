/**
 * SSIMULACRA 2.1 (Jon Sneyers, Cloudinary). Constants, the 108 weights and the
 * final mapping come from the reference implementation
 * (github.com/cloudinary/ssimulacra2, src/ssimulacra2.cc, BSD-3-Clause,
 * Copyright (c) Jon Sneyers, Cloudinary); its blur is libjxl's recursive
 * Gaussian and its colour space libjxl's XYB.
 *
 * The algorithm: both images in positive XYB; at 6 scales (1:1 to 1:32,
 * downscaled in linear RGB) and for each channel, three error maps over a
 * Gaussian window (sigma 1.5): SSIM without the luminance denominator, the
 * "artifact" map (the distorted image has local contrast where the original is
 * smooth: ringing, blocking, banding) and the "detail loss" map (the reverse:
 * blur, smoothing). Each map gives its mean and its 4-norm: 108 numbers, whose
 * weighted sum goes through a fixed polynomial and power to the 0-100 score.
 *
 * The pixel work runs in WebAssembly SIMD compiled from our own C
 * (./ssimulacra2.c, built by scripts/build-metric-wasm.sh; docs/decisions/014):
 * the XYB pyramid and the maps. This module keeps the weights, chooses the
 * maps, and maps the norms to the score. Ours differs from the reference in
 * how, not what:
 * - the blurs are streamed (rows blurred horizontally four at a time into a
 *   ring, then vertically), with no full-size temporaries;
 * - maps whose every weight is below `skipBelow` (default 0.01; the largest
 *   skipped weight is 0.0021) are not computed: X and B at full resolution, B at
 *   1:2 and 1:4, the whole 1:32 scale. Measured: identical to 3 decimals on the
 *   84 reference pairs, and well under half the reference's work.
 * - precision: float32 everywhere, as the reference, and its blur's rounding
 *   per output (its recursion's poles lie on the unit circle, so rounding noise
 *   is never damped and its scores include it: up to 3 points at high quality
 *   against a double-precision blur), without its fused multiply-adds. Measured
 *   agreement and speed: codecs/README.md.
 *
 * A pyramid's planes live in the WASM module's memory: free it (`free()`) when
 * done. The module is compiled once per process (codecs/wasm.ts) and
 * instantiated once per thread.
 */
import { compiledModuleSync, forgetHeap, heapBytesOf, METRIC_WASM, METRIC_WASM_PORTABLE, trackHeap } from "../wasm.ts";

export interface RgbaPixels {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

const NUM_SCALES = 6;

/**
 * Index c·36 + scale·6 + norm·3 + map: c 0-2 = X, Y, B; norm 0 = mean, 1 = 4-norm;
 * map 0 = SSIM, 1 = artifact, 2 = detail loss.
 */
export const WEIGHTS: readonly number[] = [
  // X: scales 1:1 … 1:32, each [SSIM, artifact, detail] mean then 4-norm
  0.0,
  0.0007376606707406586,
  0.0,
  0.0,
  0.0007793481682867309,
  0.0,
  0.0,
  0.0004371155730107379,
  0.0,
  1.1041726426657346,
  0.00066284834129271,
  0.00015231632783718752,
  0.0,
  0.0016406437456599754,
  0.0,
  1.8422455520539298,
  11.441172603757666,
  0.0,
  0.0007989109436015163,
  0.000176816438078653,
  0.0,
  1.8787594979546387,
  10.94906990605142,
  0.0,
  0.0007289346991508072,
  0.9677937080626833,
  0.0,
  0.00014003424285435884,
  0.9981766977854967,
  0.00031949755934435053,
  0.0004550992113792063,
  0.0,
  0.0,
  0.0013648766163243398,
  0.0,
  0.0,
  // Y
  0.0,
  0.0,
  0.0,
  7.466890328078848,
  0.0,
  17.445833984131262,
  0.0006235601634041466,
  0.0,
  0.0,
  6.683678146179332,
  0.00037724407979611296,
  1.027889937768264,
  225.20515300849274,
  0.0,
  0.0,
  19.213238186143016,
  0.0011401524586618361,
  0.001237755635509985,
  176.39317598450694,
  0.0,
  0.0,
  24.43300999870476,
  0.28520802612117757,
  0.0004485436923833408,
  0.0,
  0.0,
  0.0,
  34.77906344483772,
  44.835625328877896,
  0.0,
  0.0,
  0.0,
  0.0,
  0.0,
  0.0,
  0.0,
  // B
  0.0,
  0.0008680556573291698,
  0.0,
  0.0,
  0.0,
  0.0,
  0.0,
  0.0005313191874358747,
  0.0,
  0.00016533814161379112,
  0.0,
  0.0,
  0.0,
  0.0,
  0.0,
  0.0004179171803251336,
  0.0017290828234722833,
  0.0,
  0.0020827005846636437,
  0.0,
  0.0,
  8.826982764996862,
  23.19243343998926,
  0.0,
  95.1080498811086,
  0.9863978034400682,
  0.9834382792465353,
  0.0012286405048278493,
  171.2667255897307,
  0.9807858872435379,
  0.0,
  0.0,
  0.0,
  0.0005130064588990679,
  0.0,
  0.00010854057858411537,
];

export const weightIndex = (channel: number, scale: number, norm: number, map: number) =>
  channel * 36 + scale * 6 + norm * 3 + map;

/** The reference's mapping from the weighted sum of norms to the score. */
export function scoreFromWeightedSum(sum: number): number {
  let s = sum * 0.9562382616834844;
  s = 2.326765642916932 * s - 0.020884521182843837 * s * s + 6.248496625763138e-05 * s * s * s;
  return s > 0 ? 100 - 10 * Math.pow(s, 0.6276336467831387) : 100;
}

export const DEFAULT_SKIP_BELOW = 0.01;

/**
 * Which maps to compute, as the WASM reads it: 18 bytes, scale·3 + channel:
 * 0 none, 1 the edge maps only, 2 edge maps and SSIM.
 */
function makePlan(skipBelow: number): Uint8Array {
  const counts = (w: number) => skipBelow === 0 || w >= skipBelow;
  const plan = new Uint8Array(NUM_SCALES * 3);
  for (let scale = 0; scale < NUM_SCALES; scale++) {
    for (let c = 0; c < 3; c++) {
      const w = (norm: number, map: number) => WEIGHTS[weightIndex(c, scale, norm, map)]!;
      const ssim = counts(Math.max(w(0, 0), w(1, 0)));
      const edges = counts(Math.max(w(0, 1), w(1, 1), w(0, 2), w(1, 2)));
      plan[scale * 3 + c] = ssim ? 2 : edges ? 1 : 0;
    }
  }
  return plan;
}

const PLANS = new Map<number, Uint8Array>();
function planFor(skipBelow: number): Uint8Array {
  let plan = PLANS.get(skipBelow);
  if (!plan) PLANS.set(skipBelow, plan = makePlan(skipBelow));
  return plan;
}

/** sRGB byte → linear light, exact sRGB transfer function (the WASM's table, written at instantiation). */
const LINEAR_FROM_BYTE = Float32Array.from({ length: 256 }, (_, c) => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
});

/** ./ssimulacra2.c's exports (pointers are byte offsets into `memory`; 0 = out of memory). */
interface MetricExports {
  memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  free(pointer: number): void;
  allocated_bytes(): number;
  linear_table(): number;
  pyramid(rgba: number, width: number, height: number, plan: number): number;
  pyramid_free(pyramid: number): void;
  compare(a: number, b: number, plan: number, norms: number): number;
  blur_row(input: number, output: number, width: number): number;
  fma_is_fused(x: number): number;
}

interface Metric {
  module: WebAssembly.Module;
  exports: MetricExports;
  /** 18 bytes for the plan, then 8-aligned the 108 norms (allocated once). */
  io: number;
}

const NORMS_AT = 24;
let metric: Metric | null = null;

/**
 * The relaxed-SIMD build where its multiply-adds are fused (x86-64 with FMA3, 64-bit ARM: then it computes
 * exactly what the emulated build does, at about 60% of the time), else the build that emulates them.
 */
function instantiateMetric(): { module: WebAssembly.Module; exports: MetricExports } {
  try {
    const module = compiledModuleSync(METRIC_WASM);
    const exports = new WebAssembly.Instance(module, {}).exports as unknown as MetricExports;
    if (exports.fma_is_fused(1 + 2 ** -12) === 1) return { module, exports };
  } catch {
    // No relaxed SIMD in this runtime.
  }
  const module = compiledModuleSync(METRIC_WASM_PORTABLE);
  return { module, exports: new WebAssembly.Instance(module, {}).exports as unknown as MetricExports };
}

function wasm(): Metric {
  if (metric) return metric;
  const { module, exports } = instantiateMetric();
  new Float32Array(exports.memory.buffer, exports.linear_table() >>> 0, 256).set(LINEAR_FROM_BYTE);
  trackHeap(module, exports.memory);
  // Pointers past 2 GiB come back from WASM as negative i32s: read them unsigned.
  const io = exports.alloc(NORMS_AT + 8 * WEIGHTS.length) >>> 0;
  if (!io) throw outOfMemory();
  return metric = { module, exports, io };
}

/** Pyramids not yet freed: the instance holding them cannot be dropped. */
let livePyramids = 0;

/**
 * Drops the metric's instance when no pyramid lives in it and its heap is over `keepHeapBytes` (it grows with
 * the largest image measured, 18.5 bytes per pixel, and never shrinks); the caller collects it. Between jobs
 * only. True when it was dropped.
 */
export function releaseMetricHeap(keepHeapBytes: number): boolean {
  if (!metric || releasableMetricHeapBytes(keepHeapBytes) === 0) return false;
  forgetHeap(metric.module);
  metric = null;
  return true;
}

/** The bytes `releaseMetricHeap(keepHeapBytes)` would give back now. */
export function releasableMetricHeapBytes(keepHeapBytes: number): number {
  const bytes = metric && livePyramids === 0 ? heapBytesOf(metric.module) : 0;
  return bytes > keepHeapBytes ? bytes : 0;
}

const outOfMemory = () => new RangeError("The quality measurement ran out of memory");

function writePlan(m: Metric, skipBelow: number): number {
  new Uint8Array(m.exports.memory.buffer, m.io, NUM_SCALES * 3).set(planFor(skipBelow));
  return m.io;
}

/**
 * Pyramids not freed explicitly are freed when collected (a backstop, not the way to free them), in the
 * instance that made them.
 */
const unfreed = new FinalizationRegistry<{ pointer: number; owner: Metric }>(({ pointer, owner }) => {
  livePyramids--;
  if (owner === metric) owner.exports.pyramid_free(pointer);
});

/** Pyramids that can be rebuilt from their pixels (`xybPyramid(image, skipBelow, true)`), while they live. */
const spareable = new Set<WeakRef<XybPyramid>>();

/** An image converted for the metric: keep the original's to compare several outputs with it, then free it. */
export class XybPyramid {
  #pointer: number;
  /** The instance holding its planes; none while spared (a reference would keep a dropped instance's heap). */
  #owner: Metric | null;
  #freed = false;
  readonly #ref: WeakRef<XybPyramid> | null;

  constructor(
    pointer: number,
    readonly width: number,
    readonly height: number,
    readonly skipBelow: number,
    /** The pixels it was made from, when it may be spared (`spareMetricHeap`) and rebuilt. */
    readonly source: RgbaPixels | null = null,
  ) {
    this.#pointer = pointer;
    this.#owner = wasm();
    livePyramids++;
    unfreed.register(this, { pointer, owner: this.#owner }, this);
    this.#ref = source ? new WeakRef(this) : null;
    if (this.#ref) spareable.add(this.#ref);
  }

  /** Its planes in the WASM memory, rebuilt first if they were spared; throws once freed. */
  get pointer(): number {
    if (this.#freed) throw new Error("This XYB pyramid has been freed");
    if (!this.#pointer) {
      if ((this.source!.data.buffer as ArrayBuffer).detached) {
        throw new Error("A spared pyramid's pixels were released");
      }
      this.#owner = wasm();
      this.#pointer = buildPyramid(this.#owner, this.source!, this.skipBelow);
      livePyramids++;
      unfreed.register(this, { pointer: this.#pointer, owner: this.#owner }, this);
    }
    return this.#pointer;
  }

  /** Gives its planes back to the WASM heap, to be rebuilt from its pixels when next read. */
  spare(): void {
    if (this.source && !(this.source.data.buffer as ArrayBuffer).detached) this.#release();
  }

  /** Gives its planes back to the WASM heap for good; safe to call twice. */
  free(): void {
    this.#release();
    if (this.#ref) spareable.delete(this.#ref);
    this.#freed = true;
  }

  #release(): void {
    if (!this.#pointer) return;
    unfreed.unregister(this);
    livePyramids--;
    this.#owner!.exports.pyramid_free(this.#pointer);
    this.#pointer = 0;
    this.#owner = null;
  }

  [Symbol.dispose](): void {
    this.free();
  }
}

/**
 * Before a long encode of a large image: every rebuildable pyramid is spared and the metric's instance
 * dropped when nothing else lives in it and its heap is over `keepHeapBytes` (the caller collects it). The
 * pyramids are rebuilt when next read, in a new instance. True when it was dropped.
 */
export function spareMetricHeap(keepHeapBytes: number): boolean {
  if (!metric || heapBytesOf(metric.module) <= keepHeapBytes) return false;
  for (const ref of spareable) {
    const pyramid = ref.deref();
    if (pyramid) pyramid.spare();
    else spareable.delete(ref);
  }
  return releaseMetricHeap(keepHeapBytes);
}

/** The pyramid of `image` in `m`'s memory (a pointer; throws when memory runs out). */
function buildPyramid(m: Metric, image: RgbaPixels, skipBelow: number): number {
  const { exports } = m;
  const { width, height } = image;
  const bytes = width * height * 4;
  const rgba = exports.alloc(bytes) >>> 0;
  if (!rgba) throw outOfMemory();
  let pointer: number;
  try {
    new Uint8Array(exports.memory.buffer, rgba, bytes).set(image.data.subarray(0, bytes));
    pointer = exports.pyramid(rgba, width, height, writePlan(m, skipBelow)) >>> 0;
  } finally {
    exports.free(rgba);
  }
  if (!pointer) throw outOfMemory();
  return pointer;
}

/**
 * `image` converted for the metric. `rebuildable`: the pyramid keeps a reference to `image` (which must not
 * change while it lives) so that `spareMetricHeap` may give its memory back and it is rebuilt when next read.
 */
export function xybPyramid(image: RgbaPixels, skipBelow = DEFAULT_SKIP_BELOW, rebuildable = false): XybPyramid {
  const pointer = buildPyramid(wasm(), image, skipBelow);
  return new XybPyramid(pointer, image.width, image.height, skipBelow, rebuildable ? image : null);
}

export interface Ssimulacra2Result {
  /** The score, -inf..100 (100: identical). */
  score: number;
  /** The 108 norms (0 where not computed), indexed like WEIGHTS. */
  norms: Float64Array;
}

export function compareXyb(original: XybPyramid, distorted: XybPyramid): Ssimulacra2Result {
  if (original.width !== distorted.width || original.height !== distorted.height) {
    throw new Error("SSIMULACRA 2 needs images of equal size");
  }
  const m = wasm(), { exports } = m;
  const plan = writePlan(m, Math.max(original.skipBelow, distorted.skipBelow));
  if (exports.compare(original.pointer, distorted.pointer, plan, m.io + NORMS_AT) !== 0) throw outOfMemory();
  const norms = new Float64Array(exports.memory.buffer, m.io + NORMS_AT, WEIGHTS.length).slice();
  let sum = 0;
  for (let i = 0; i < norms.length; i++) sum += WEIGHTS[i]! * Math.abs(norms[i]!);
  return { score: scoreFromWeightedSum(sum), norms };
}

/** SSIMULACRA 2 of two RGBA images of the same size. */
export function ssimulacra2(original: RgbaPixels, distorted: RgbaPixels, skipBelow = DEFAULT_SKIP_BELOW): number {
  using a = xybPyramid(original, skipBelow);
  using b = xybPyramid(distorted, skipBelow);
  return compareXyb(a, b).score;
}

/** For tests: the metric's horizontal blur of one row, and the bytes its WASM heap has handed out. */
export const metricInternals = {
  blurRow(values: Float32Array): Float32Array {
    const { exports } = wasm();
    const input = exports.alloc(values.length * 4) >>> 0, output = exports.alloc(values.length * 4) >>> 0;
    try {
      if (!input || !output) throw outOfMemory();
      new Float32Array(exports.memory.buffer, input, values.length).set(values);
      if (exports.blur_row(input, output, values.length) !== 0) throw outOfMemory();
      return new Float32Array(exports.memory.buffer, output, values.length).slice();
    } finally {
      exports.free(input);
      exports.free(output);
    }
  },
  allocatedBytes: (): number => wasm().exports.allocated_bytes(),
};

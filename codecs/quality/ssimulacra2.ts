/**
 * SSIMULACRA 2.1 (Jon Sneyers, Cloudinary), written here over typed arrays.
 * Constants, the 108 weights and the final mapping come from the reference
 * implementation (github.com/cloudinary/ssimulacra2, src/ssimulacra2.cc,
 * BSD-3-Clause, Copyright (c) Jon Sneyers, Cloudinary); its blur is libjxl's
 * recursive Gaussian (./blur.ts) and its colour space libjxl's XYB (./xyb.ts).
 *
 * The algorithm: both images in positive XYB; at 6 scales (1:1 to 1:32,
 * downscaled in linear RGB) and for each channel, three error maps over a
 * Gaussian window (sigma 1.5): SSIM without the luminance denominator, the
 * "artifact" map (the distorted image has local contrast where the original is
 * smooth: ringing, blocking, banding) and the "detail loss" map (the reverse:
 * blur, smoothing). Each map gives its mean and its 4-norm: 108 numbers, whose
 * weighted sum goes through a fixed polynomial and power to the 0-100 score.
 *
 * Ours differs in how, not what:
 * - the blurs are streamed row by row (no full-size temporaries);
 * - maps whose every weight is below `skipBelow` (default 0.01; the largest
 *   skipped weight is 0.0021) are not computed: X and B at full resolution, B at
 *   1:2 and 1:4, the whole 1:32 scale. Measured: identical to 3 decimals on the
 *   84 reference pairs, and well under half the reference's work.
 * - precision: the reference blurs in float32 with a recursion whose poles lie on
 *   the unit circle, so its rounding errors are never damped; they leave a small
 *   noise in the blurred planes that lowers its scores by up to 3 points at high
 *   quality. From scale 1:2 on we reproduce its float32 arithmetic (Math.fround at
 *   each of its roundings, its four-outputs-at-a-time horizontal pass); at full
 *   resolution, where that noise turned out not to matter for agreement, we blur in
 *   double precision (3× cheaper) and blur(a²) + blur(b²) as one blur. Measured
 *   on the 84 reference pairs: max |Δ| 0.48 with float32 everywhere, and see
 *   codecs/README.md for the figures of the mix used.
 */
import {
  blurColumnsStep,
  blurColumnsStepDouble,
  blurLine as blurLineF,
  blurLineDouble,
  type GaussKernel,
  SSIM_KERNEL,
} from "./blur.ts";
import { halveLinear, halveRgba, type LinearPlanes, linearToXyb, rgbaToXyb } from "./xyb.ts";

export interface RgbaPixels {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

const NUM_SCALES = 6;
const C2 = Math.fround(0.0009);
const fr = Math.fround;

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

/** Which maps to compute: per scale and channel, none, edge maps only, or edge + SSIM. */
interface Plan {
  skipBelow: number;
  /** [scale][channel] */
  maps: ("none" | "edges" | "all")[][];
}

export const DEFAULT_SKIP_BELOW = 0.01;

function makePlan(skipBelow: number): Plan {
  const counts = (w: number) => skipBelow === 0 || w >= skipBelow;
  const maps = Array.from({ length: NUM_SCALES }, (_, scale) =>
    [0, 1, 2].map((c) => {
      const w = (norm: number, map: number) => WEIGHTS[weightIndex(c, scale, norm, map)]!;
      const ssim = counts(Math.max(w(0, 0), w(1, 0)));
      const edges = counts(Math.max(w(0, 1), w(1, 1), w(0, 2), w(1, 2)));
      return ssim ? "all" as const : edges ? "edges" as const : "none" as const;
    }));
  return { skipBelow, maps };
}

const PLANS = new Map<number, Plan>();
function planFor(skipBelow: number): Plan {
  let plan = PLANS.get(skipBelow);
  if (!plan) PLANS.set(skipBelow, plan = makePlan(skipBelow));
  return plan;
}

interface ScalePlanes {
  width: number;
  height: number;
  /** X, Y, B in positive XYB; null where the plan does not need the channel. */
  planes: [Float32Array | null, Float32Array | null, Float32Array | null];
}

/** An image converted for the metric: keep the original's to compare several outputs with it. */
export interface XybPyramid {
  width: number;
  height: number;
  skipBelow: number;
  scales: ScalePlanes[];
}

export function xybPyramid(image: RgbaPixels, skipBelow = DEFAULT_SKIP_BELOW): XybPyramid {
  const plan = planFor(skipBelow);
  const scales: ScalePlanes[] = [];
  let width = image.width, height = image.height;
  let linear: LinearPlanes | null = null;
  for (let scale = 0; scale < NUM_SCALES; scale++) {
    // As the reference: a scale is measured while the previous one was at least 8×8.
    if (width < 8 || height < 8) break;
    if (scale > 0) {
      linear = linear ? halveLinear(linear) : halveRgba(image.data, image.width, image.height);
      width = linear.width;
      height = linear.height;
    }
    const need = plan.maps[scale]!;
    const n = width * height;
    const planes = need.map((m) => (m === "none" ? null : new Float32Array(n))) as ScalePlanes["planes"];
    if (linear) linearToXyb(linear.r, linear.g, linear.b, n, ...planes);
    else rgbaToXyb(image.data, n, ...planes);
    scales.push({ width, height, planes });
  }
  return { width: image.width, height: image.height, skipBelow, scales };
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
  const norms = new Float64Array(WEIGHTS.length);
  const plan = planFor(Math.max(original.skipBelow, distorted.skipBelow));
  const scales = Math.min(original.scales.length, distorted.scales.length);
  for (let scale = 0; scale < scales; scale++) {
    const a = original.scales[scale]!, b = distorted.scales[scale]!;
    for (let c = 0; c < 3; c++) {
      const need = plan.maps[scale]![c]!;
      const pa = a.planes[c], pb = b.planes[c];
      if (need === "none" || !pa || !pb) continue;
      const m = channelMaps(pa, pb, a.width, a.height, need === "all", SSIM_KERNEL, scale > 0);
      for (let norm = 0; norm < 2; norm++) {
        norms[weightIndex(c, scale, norm, 0)] = m[norm]!;
        norms[weightIndex(c, scale, norm, 1)] = m[2 + norm]!;
        norms[weightIndex(c, scale, norm, 2)] = m[4 + norm]!;
      }
    }
  }
  let sum = 0;
  for (let i = 0; i < norms.length; i++) sum += WEIGHTS[i]! * Math.abs(norms[i]!);
  return { score: scoreFromWeightedSum(sum), norms };
}

/** SSIMULACRA 2 of two RGBA images of the same size. */
export function ssimulacra2(original: RgbaPixels, distorted: RgbaPixels, skipBelow = DEFAULT_SKIP_BELOW): number {
  return compareXyb(xybPyramid(original, skipBelow), xybPyramid(distorted, skipBelow)).score;
}

/**
 * The three maps of one channel at one scale, pooled: [ssim mean, ssim 4-norm,
 * artifact mean, artifact 4-norm, detail-loss mean, detail-loss 4-norm].
 *
 * Streams: each row of the blurred quantities (mu1, mu2, and with SSIM
 * blur(p1² + p2²) and blur(p1·p2)) is blurred horizontally into a ring of
 * 2N + 2 rows, and the vertical recursion turns them into output row
 * n = row − N + 1, which is pooled at once.
 */
function channelMaps(
  p1: Float32Array,
  p2: Float32Array,
  width: number,
  height: number,
  withSsim: boolean,
  kernel: GaussKernel,
  float32: boolean,
): number[] {
  const blurLine = float32 ? blurLineF : blurLineDouble;
  const big = kernel.radius;
  // In double precision blur(p1²) + blur(p2²) is one blur of the sum.
  const quantities = withSsim ? (float32 ? 5 : 4) : 2;
  const ringRows = 2 * big + 2;
  // Rings (one per quantity) plus one zero row for reads outside the image.
  const rings = Array.from({ length: quantities }, () => new Float32Array((ringRows + 1) * width));
  const zeroAt = ringRows * width;
  const states = Array.from(
    { length: quantities },
    () => float32 ? new Float32Array(6 * width) : new Float64Array(6 * width),
  );
  const rows = Array.from({ length: quantities }, () => new Float32Array(width));
  const products = Array.from({ length: 3 }, () => new Float32Array(width));
  const [mu1, mu2, sigma11, sigma22, sigma12] = rows as Float32Array[] as [
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
  ];
  const [sq1, sq2, prod] = products as [Float32Array, Float32Array, Float32Array];

  let ssim1 = 0, ssim4 = 0, art1 = 0, art4 = 0, det1 = 0, det4 = 0;
  for (let n = 1 - big; n < height; n++) {
    const feed = n + big - 1;
    if (feed < height) {
      const at = feed * width, slot = (feed % ringRows) * width;
      blurLine(p1, at, width, rings[0]!, slot, kernel);
      blurLine(p2, at, width, rings[1]!, slot, kernel);
      if (withSsim && float32) {
        for (let x = 0; x < width; x++) {
          const a = p1[at + x]!, b = p2[at + x]!;
          sq1[x] = a * a;
          sq2[x] = b * b;
          prod[x] = a * b;
        }
        blurLine(sq1, 0, width, rings[2]!, slot, kernel);
        blurLine(sq2, 0, width, rings[3]!, slot, kernel);
        blurLine(prod, 0, width, rings[4]!, slot, kernel);
      } else if (withSsim) {
        for (let x = 0; x < width; x++) {
          const a = p1[at + x]!, b = p2[at + x]!;
          sq1[x] = a * a + b * b;
          prod[x] = a * b;
        }
        blurLine(sq1, 0, width, rings[2]!, slot, kernel);
        blurLine(prod, 0, width, rings[3]!, slot, kernel);
      }
    }
    const top = n - big - 1;
    const topAt = top >= 0 ? (top % ringRows) * width : zeroAt;
    const bottomAt = feed < height ? (feed % ringRows) * width : zeroAt;
    for (let q = 0; q < quantities; q++) {
      if (float32) {
        blurColumnsStep(rings[q]!, topAt, rings[q]!, bottomAt, width, states[q] as Float32Array, rows[q]!, kernel);
      } else {blurColumnsStepDouble(
          rings[q]!,
          topAt,
          rings[q]!,
          bottomAt,
          width,
          states[q] as Float64Array,
          rows[q]!,
          kernel,
        );}
    }
    if (n < 0) continue;
    const at = n * width;
    if (withSsim && !float32) {
      const sigmaSum = sigma11, sigmaProd = sigma22;
      for (let x = 0; x < width; x++) {
        const m1 = mu1[x]!, m2 = mu2[x]!;
        const dm = m1 - m2;
        const d = 1 - ((1 - dm * dm) * (2 * (sigmaProd[x]! - m1 * m2) + C2)) / (sigmaSum[x]! - m1 * m1 - m2 * m2 + C2);
        if (d > 0) {
          ssim1 += d;
          const d2 = d * d;
          ssim4 += d2 * d2;
        }
      }
    } else if (withSsim) {
      // In float32 like the reference (its SSIM differences are small next to the values).
      for (let x = 0; x < width; x++) {
        const m1 = mu1[x]!, m2 = mu2[x]!;
        const dm = fr(m1 - m2);
        const numM = fr(1 - fr(dm * dm));
        const numS = fr(fr(2 * fr(sigma12[x]! - fr(m1 * m2))) + C2);
        const denS = fr(fr(fr(sigma11[x]! - fr(m1 * m1)) + fr(sigma22[x]! - fr(m2 * m2))) + C2);
        const d = 1 - fr(fr(numM * numS) / denS);
        if (d > 0) {
          ssim1 += d;
          const d2 = d * d;
          ssim4 += d2 * d2;
        }
      }
    }
    for (let x = 0; x < width; x++) {
      const e1 = Math.abs(fr(p1[at + x]! - mu1[x]!)), e2 = Math.abs(fr(p2[at + x]! - mu2[x]!));
      const d = (1 + e2) / (1 + e1) - 1;
      const d2 = d * d;
      if (d > 0) {
        art1 += d;
        art4 += d2 * d2;
      } else {
        det1 -= d;
        det4 += d2 * d2;
      }
    }
  }
  const inv = 1 / (width * height);
  return [
    ssim1 * inv,
    Math.sqrt(Math.sqrt(ssim4 * inv)),
    art1 * inv,
    Math.sqrt(Math.sqrt(art4 * inv)),
    det1 * inv,
    Math.sqrt(Math.sqrt(det4 * inv)),
  ];
}

/**
 * The recursive Gaussian SSIMULACRA 2 blurs with (libjxl's `gauss_blur`, after
 * Charalampidis 2016, "Recursive Implementation of the Gaussian Filter Using
 * Truncated Cosine Functions"): three second-order IIR filters (k = 1, 3, 5)
 * whose outputs sum to a Gaussian of the given sigma, each fed with
 * in[n - N - 1] + in[n + N - 1] and zero outside the image. Coefficients are
 * derived here from the paper's equations; the reference rounds them to float32,
 * and so do we.
 */

export interface GaussKernel {
  /** N, the filter's half support. */
  radius: number;
  /** Per filter k = 1, 3, 5: y[n] = n2·(in[n-N-1] + in[n+N-1]) − d1·y[n-1] − y[n-2]. */
  n2: [number, number, number];
  d1: [number, number, number];
  /** The same before rounding to float32 (the four-step expansion starts from these). */
  n2Exact: [number, number, number];
  d1Exact: [number, number, number];
}

export function gaussKernel(sigma: number): GaussKernel {
  const radius = Math.round(3.2795 * sigma + 0.2546);
  const omega = [1, 3, 5].map((k) => (k * Math.PI) / (2 * radius)) as [number, number, number];
  // p_k and r_k (eqs. 37, 44) with the alternating signs of the k = 1, 3, 5 terms.
  const sign = [1, -1, 1];
  const p = omega.map((w, i) => sign[i]! / Math.tan(0.5 * w));
  const r = omega.map((w, i) => (sign[i]! * p[i]! * p[i]!) / Math.sin(w));
  const rho = omega.map((w) => Math.exp(-0.5 * sigma * sigma * w * w) / radius);
  const d13 = p[0]! * r[1]! - r[0]! * p[1]!;
  const d35 = p[1]! * r[2]! - r[1]! * p[2]!;
  const d51 = p[2]! * r[0]! - r[2]! * p[0]!;
  const zeta15 = d35 / d13, zeta35 = d51 / d13;
  // Solve A·beta = gamma (eqs. 53-56) by Cramer's rule.
  const a = [[p[0]!, p[1]!, p[2]!], [r[0]!, r[1]!, r[2]!], [zeta15, zeta35, 1]];
  const gamma = [1, radius * radius - sigma * sigma, zeta15 * rho[0]! + zeta35 * rho[1]! + rho[2]!];
  const det = det3(a);
  const beta = [0, 1, 2].map((col) => det3(a.map((row, i) => row.map((v, j) => (j === col ? gamma[i]! : v)))) / det);
  const n2Exact = omega.map((w, i) => -beta[i]! * Math.cos(w * (radius + 1))) as GaussKernel["n2"];
  const d1Exact = omega.map((w) => -2 * Math.cos(w)) as GaussKernel["d1"];
  const n2 = n2Exact.map(Math.fround) as GaussKernel["n2"], d1 = d1Exact.map(Math.fround) as GaussKernel["d1"];
  return { radius, n2, d1, n2Exact, d1Exact };
}

function det3(m: number[][]): number {
  const [a, b, c] = m as [number[], number[], number[]];
  return a[0]! * (b[1]! * c[2]! - b[2]! * c[1]!) - a[1]! * (b[0]! * c[2]! - b[2]! * c[0]!) +
    a[2]! * (b[0]! * c[1]! - b[1]! * c[0]!);
}

/** The SSIMULACRA 2 window: sigma 1.5, N = 5. */
export const SSIM_KERNEL = gaussKernel(1.5);

const fr = Math.fround;

/**
 * The horizontal pass computes four outputs at a time from the two previous
 * ones, as the reference does (coefficients of the recurrence expanded over
 * four steps), and rounds to float32 where it does. This is not cosmetic: the
 * recurrence's poles lie on the unit circle, so float32 rounding is never
 * damped and becomes a small noise in the blurred planes that the reference's
 * scores include (up to 3 points at high quality with double precision).
 */
interface LaneCoefficients {
  mulIn: Float64Array;
  mulPrev: Float64Array;
  mulPrev2: Float64Array;
}

const laneCache = new WeakMap<GaussKernel, LaneCoefficients>();
function lanes(kernel: GaussKernel): LaneCoefficients {
  let c = laneCache.get(kernel);
  if (c) return c;
  const mulIn = new Float64Array(12), mulPrev = new Float64Array(12), mulPrev2 = new Float64Array(12);
  for (let k = 0; k < 3; k++) {
    const n = kernel.n2Exact[k]!, d = kernel.d1Exact[k]!, d2 = d * d;
    mulPrev.set([-d, d2 - 1, -d2 * d + 2 * d, d2 * d2 - 3 * d2 + 1].map(fr), 4 * k);
    mulPrev2.set([-1, d, -d2 + 1, d2 * d - 2 * d].map(fr), 4 * k);
    mulIn.set([n, -d * n, d2 * n - n, -d2 * d * n + 2 * d * n].map(fr), 4 * k);
  }
  laneCache.set(kernel, c = { mulIn, mulPrev, mulPrev2 });
  return c;
}

/** Blurs `width` values of `src` from `srcAt` into `out` from `outAt` (one row, zero outside). */
export function blurLine(
  src: Float32Array,
  srcAt: number,
  width: number,
  out: Float32Array,
  outAt: number,
  kernel: GaussKernel,
): void {
  const big = kernel.radius;
  const { mulIn, mulPrev, mulPrev2 } = lanes(kernel);
  const i10 = mulIn[0]!, i11 = mulIn[1]!, i12 = mulIn[2]!, i13 = mulIn[3]!;
  const i30 = mulIn[4]!, i31 = mulIn[5]!, i32 = mulIn[6]!, i33 = mulIn[7]!;
  const i50 = mulIn[8]!, i51 = mulIn[9]!, i52 = mulIn[10]!, i53 = mulIn[11]!;
  const p10 = mulPrev[0]!, p11 = mulPrev[1]!, p12 = mulPrev[2]!, p13 = mulPrev[3]!;
  const p30 = mulPrev[4]!, p31 = mulPrev[5]!, p32 = mulPrev[6]!, p33 = mulPrev[7]!;
  const p50 = mulPrev[8]!, p51 = mulPrev[9]!, p52 = mulPrev[10]!, p53 = mulPrev[11]!;
  const q11 = mulPrev2[1]!, q12 = mulPrev2[2]!, q13 = mulPrev2[3]!;
  const q31 = mulPrev2[5]!, q32 = mulPrev2[6]!, q33 = mulPrev2[7]!;
  const q51 = mulPrev2[9]!, q52 = mulPrev2[10]!, q53 = mulPrev2[11]!;
  let y1 = 0, y3 = 0, y5 = 0, z1 = 0, z3 = 0, z5 = 0; // y: previous output, z: the one before
  let n = 1 - big;
  // Left edge, one output at a time (the reference's first aligned index is N + 1 rounded up to 4).
  const firstAligned = Math.min((big + 4) & ~3, width);
  for (; n < firstAligned; n++) {
    const l = n - big - 1, r = n + big - 1;
    const s = fr((l >= 0 ? src[srcAt + l]! : 0) + (r < width ? src[srcAt + r]! : 0));
    const o1 = fr(p10 * y1 + fr(fr(s * i10) - z1));
    const o3 = fr(p30 * y3 + fr(fr(s * i30) - z3));
    const o5 = fr(p50 * y5 + fr(fr(s * i50) - z5));
    z1 = y1, z3 = y3, z5 = y5, y1 = o1, y3 = o3, y5 = o5;
    if (n >= 0) out[outAt + n] = o1 + fr(o3 + o5);
  }
  // Interior, four outputs per step.
  for (; n < width - big - 2; n += 4) {
    const a = srcAt + n - big - 1, b = srcAt + n + big - 1;
    const s0 = fr(src[a]! + src[b]!), s1 = fr(src[a + 1]! + src[b + 1]!);
    const s2 = fr(src[a + 2]! + src[b + 2]!), s3 = fr(src[a + 3]! + src[b + 3]!);
    // filter 1
    const a0 = fr(p10 * y1 + fr(fr(s0 * i10) - z1));
    const a1 = fr(p11 * y1 + fr(q11 * z1 + fr(i10 * s1 + fr(s0 * i11))));
    const a2 = fr(p12 * y1 + fr(q12 * z1 + fr(i10 * s2 + fr(i11 * s1 + fr(s0 * i12)))));
    const a3 = fr(p13 * y1 + fr(q13 * z1 + fr(i10 * s3 + fr(i11 * s2 + fr(i12 * s1 + fr(s0 * i13))))));
    // filter 3
    const b0 = fr(p30 * y3 + fr(fr(s0 * i30) - z3));
    const b1 = fr(p31 * y3 + fr(q31 * z3 + fr(i30 * s1 + fr(s0 * i31))));
    const b2 = fr(p32 * y3 + fr(q32 * z3 + fr(i30 * s2 + fr(i31 * s1 + fr(s0 * i32)))));
    const b3 = fr(p33 * y3 + fr(q33 * z3 + fr(i30 * s3 + fr(i31 * s2 + fr(i32 * s1 + fr(s0 * i33))))));
    // filter 5
    const c0 = fr(p50 * y5 + fr(fr(s0 * i50) - z5));
    const c1 = fr(p51 * y5 + fr(q51 * z5 + fr(i50 * s1 + fr(s0 * i51))));
    const c2 = fr(p52 * y5 + fr(q52 * z5 + fr(i50 * s2 + fr(i51 * s1 + fr(s0 * i52)))));
    const c3 = fr(p53 * y5 + fr(q53 * z5 + fr(i50 * s3 + fr(i51 * s2 + fr(i52 * s1 + fr(s0 * i53))))));
    z1 = a2, z3 = b2, z5 = c2, y1 = a3, y3 = b3, y5 = c3;
    const o = outAt + n;
    out[o] = a0 + fr(b0 + c0);
    out[o + 1] = a1 + fr(b1 + c1);
    out[o + 2] = a2 + fr(b2 + c2);
    out[o + 3] = a3 + fr(b3 + c3);
  }
  // Right edge, one at a time.
  for (; n < width; n++) {
    const l = n - big - 1, r = n + big - 1;
    const s = fr((l >= 0 ? src[srcAt + l]! : 0) + (r < width ? src[srcAt + r]! : 0));
    const o1 = fr(p10 * y1 + fr(fr(s * i10) - z1));
    const o3 = fr(p30 * y3 + fr(fr(s * i30) - z3));
    const o5 = fr(p50 * y5 + fr(fr(s * i50) - z5));
    z1 = y1, z3 = y3, z5 = y5, y1 = o1, y3 = o3, y5 = o5;
    out[outAt + n] = o1 + fr(o3 + o5);
  }
}

/**
 * One vertical step for a strip of columns: `top` and `bottom` are the
 * horizontally blurred rows n − N − 1 and n + N − 1 (all zeros outside the
 * image), `state` holds per column [y1, y3, y5, z1, z3, z5], `out` receives row n.
 * Float32 rounding as the reference's fused multiply-adds.
 */
export function blurColumnsStep(
  top: Float32Array,
  topAt: number,
  bottom: Float32Array,
  bottomAt: number,
  width: number,
  state: Float32Array,
  out: Float32Array,
  kernel: GaussKernel,
): void {
  const [a1, a3, a5] = kernel.n2;
  const [b1, b3, b5] = kernel.d1;
  for (let x = 0, st = 0; x < width; x++, st += 6) {
    const s = fr(top[topAt + x]! + bottom[bottomAt + x]!);
    const y1 = state[st]!, y3 = state[st + 1]!, y5 = state[st + 2]!;
    const o1 = a1 * s + fr(-b1 * y1 - state[st + 3]!);
    const o3 = a3 * s + fr(-b3 * y3 - state[st + 4]!);
    const o5 = a5 * s + fr(-b5 * y5 - state[st + 5]!);
    state[st] = o1;
    state[st + 1] = o3;
    state[st + 2] = o5;
    state[st + 3] = y1;
    state[st + 4] = y3;
    state[st + 5] = y5;
    out[x] = fr(o1) + fr(fr(o3) + fr(o5));
  }
}

/** The same recursion in double precision, one output at a time (no float32 rounding). */
export function blurLineDouble(
  src: Float32Array,
  srcAt: number,
  width: number,
  out: Float32Array,
  outAt: number,
  kernel: GaussKernel,
): void {
  const big = kernel.radius;
  const [a1, a3, a5] = kernel.n2;
  const [b1, b3, b5] = kernel.d1;
  let y1 = 0, y3 = 0, y5 = 0, z1 = 0, z3 = 0, z5 = 0;
  const interiorFrom = Math.min(big + 1, width);
  const interiorTo = Math.max(interiorFrom, width - big + 1);
  for (let n = 1 - big; n < interiorFrom; n++) {
    const l = n - big - 1, r = n + big - 1;
    const s = (l >= 0 ? src[srcAt + l]! : 0) + (r < width ? src[srcAt + r]! : 0);
    const o1 = a1 * s - b1 * y1 - z1, o3 = a3 * s - b3 * y3 - z3, o5 = a5 * s - b5 * y5 - z5;
    z1 = y1, z3 = y3, z5 = y5, y1 = o1, y3 = o3, y5 = o5;
    if (n >= 0) out[outAt + n] = o1 + o3 + o5;
  }
  for (let n = interiorFrom; n < interiorTo; n++) {
    const s = src[srcAt + n - big - 1]! + src[srcAt + n + big - 1]!;
    const o1 = a1 * s - b1 * y1 - z1, o3 = a3 * s - b3 * y3 - z3, o5 = a5 * s - b5 * y5 - z5;
    z1 = y1, z3 = y3, z5 = y5, y1 = o1, y3 = o3, y5 = o5;
    out[outAt + n] = o1 + o3 + o5;
  }
  for (let n = interiorTo; n < width; n++) {
    const s = src[srcAt + n - big - 1]!;
    const o1 = a1 * s - b1 * y1 - z1, o3 = a3 * s - b3 * y3 - z3, o5 = a5 * s - b5 * y5 - z5;
    z1 = y1, z3 = y3, z5 = y5, y1 = o1, y3 = o3, y5 = o5;
    out[outAt + n] = o1 + o3 + o5;
  }
}

export function blurColumnsStepDouble(
  top: Float32Array,
  topAt: number,
  bottom: Float32Array,
  bottomAt: number,
  width: number,
  state: Float64Array,
  out: Float32Array,
  kernel: GaussKernel,
): void {
  const [a1, a3, a5] = kernel.n2;
  const [b1, b3, b5] = kernel.d1;
  for (let x = 0, st = 0; x < width; x++, st += 6) {
    const s = top[topAt + x]! + bottom[bottomAt + x]!;
    const y1 = state[st]!, y3 = state[st + 1]!, y5 = state[st + 2]!;
    const o1 = a1 * s - b1 * y1 - state[st + 3]!;
    const o3 = a3 * s - b3 * y3 - state[st + 4]!;
    const o5 = a5 * s - b5 * y5 - state[st + 5]!;
    state[st] = o1;
    state[st + 1] = o3;
    state[st + 2] = o5;
    state[st + 3] = y1;
    state[st + 4] = y3;
    state[st + 5] = y5;
    out[x] = o1 + o3 + o5;
  }
}

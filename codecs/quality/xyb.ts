/**
 * Colour conversions of SSIMULACRA 2: sRGB bytes → linear light → XYB (the
 * JPEG XL opsin space: an LMS-like mix with a small bias, cube root), then
 * shifted so every channel lies in about 0..1 ("positive XYB": X·14 + 0.42,
 * Y + 0.01, B − Y + 0.55). Constants from libjxl's opsin_params.h (BSD-3-Clause).
 */

/** sRGB byte → linear light, exact sRGB transfer function, as float32. */
export const LINEAR_FROM_BYTE = Float32Array.from({ length: 256 }, (_, c) => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
});

const f = Math.fround;
const BIAS = f(0.0037930732552754493);
// Rows: L, M, S mixes of linear R, G, B.
const M00 = f(0.3), M02 = f(0.078), M01 = f(1 - 0.078 - 0.3);
const M10 = f(0.23), M12 = f(0.078), M11 = f(1 - 0.078 - 0.23);
const M20 = f(0.24342268924547819),
  M21 = f(0.20476744424496821),
  M22 = f(1 - 0.24342268924547819 - 0.20476744424496821);

/**
 * Cube root on the mixes' range [0, 1.01] from a table with linear
 * interpolation: Math.cbrt cost as much as the rest of the conversion. With
 * 2^14 steps (64 KB, stays in cache) the error is below 1e-8 for mixes over
 * 0.05 and 1e-6 at the bias (0.0038, black); the same input always maps to the
 * same value, so both images see the same error.
 */
const CBRT_STEPS = 16384;
const CBRT_MAX = 1.01;
const CBRT_SCALE = CBRT_STEPS / CBRT_MAX;
const CBRT = Float32Array.from({ length: CBRT_STEPS + 2 }, (_, i) => Math.cbrt((i * CBRT_MAX) / CBRT_STEPS));
const CBRT_BIAS = Math.cbrt(BIAS);

function cbrt(v: number): number {
  if (v <= 0) return 0;
  if (v >= CBRT_MAX) return Math.cbrt(v);
  const x = v * CBRT_SCALE;
  const i = x | 0;
  const c0 = CBRT[i]!;
  return c0 + (CBRT[i + 1]! - c0) * (x - i);
}

/**
 * Writes the positive-XYB planes that are asked for (null: not needed) of
 * `count` linear pixels given as three planes.
 */
export function linearToXyb(
  r: Float32Array,
  g: Float32Array,
  b: Float32Array,
  count: number,
  outX: Float32Array | null,
  outY: Float32Array | null,
  outB: Float32Array | null,
): void {
  for (let i = 0; i < count; i++) {
    const rr = r[i]!, gg = g[i]!, bb = b[i]!;
    const l = cbrt(M00 * rr + M01 * gg + M02 * bb + BIAS) - CBRT_BIAS;
    const m = cbrt(M10 * rr + M11 * gg + M12 * bb + BIAS) - CBRT_BIAS;
    const y = 0.5 * (l + m);
    if (outX) outX[i] = 7 * (l - m) + 0.42;
    if (outY) outY[i] = y + 0.01;
    if (outB) outB[i] = cbrt(M20 * rr + M21 * gg + M22 * bb + BIAS) - CBRT_BIAS - y + 0.55;
  }
}

/** The same from 8-bit RGBA (sRGB), pixel by pixel. */
export function rgbaToXyb(
  rgba: Uint8Array | Uint8ClampedArray,
  count: number,
  outX: Float32Array | null,
  outY: Float32Array | null,
  outB: Float32Array | null,
): void {
  const lin = LINEAR_FROM_BYTE;
  for (let i = 0, p = 0; i < count; i++, p += 4) {
    const rr = lin[rgba[p]!]!, gg = lin[rgba[p + 1]!]!, bb = lin[rgba[p + 2]!]!;
    const l = cbrt(M00 * rr + M01 * gg + M02 * bb + BIAS) - CBRT_BIAS;
    const m = cbrt(M10 * rr + M11 * gg + M12 * bb + BIAS) - CBRT_BIAS;
    const y = 0.5 * (l + m);
    if (outX) outX[i] = 7 * (l - m) + 0.42;
    if (outY) outY[i] = y + 0.01;
    if (outB) outB[i] = cbrt(M20 * rr + M21 * gg + M22 * bb + BIAS) - CBRT_BIAS - y + 0.55;
  }
}

/**
 * Halves linear RGB planes (2×2 means; an odd last row or column is averaged
 * with itself, as the reference clamps its reads). `src` null: read 8-bit RGBA.
 */
export interface LinearPlanes {
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
  width: number;
  height: number;
}

export function halveRgba(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): LinearPlanes {
  const ow = (width + 1) >> 1, oh = (height + 1) >> 1;
  const r = new Float32Array(ow * oh), g = new Float32Array(ow * oh), b = new Float32Array(ow * oh);
  const lin = LINEAR_FROM_BYTE;
  for (let oy = 0; oy < oh; oy++) {
    const y0 = 2 * oy, y1 = Math.min(y0 + 1, height - 1);
    const row0 = y0 * width * 4, row1 = y1 * width * 4;
    for (let ox = 0, o = oy * ow; ox < ow; ox++, o++) {
      const x0 = 8 * ox, x1 = Math.min(2 * ox + 1, width - 1) * 4;
      const p = row0 + x0, q = row0 + x1, s = row1 + x0, t = row1 + x1;
      r[o] = 0.25 * (lin[rgba[p]!]! + lin[rgba[q]!]! + lin[rgba[s]!]! + lin[rgba[t]!]!);
      g[o] = 0.25 * (lin[rgba[p + 1]!]! + lin[rgba[q + 1]!]! + lin[rgba[s + 1]!]! + lin[rgba[t + 1]!]!);
      b[o] = 0.25 * (lin[rgba[p + 2]!]! + lin[rgba[q + 2]!]! + lin[rgba[s + 2]!]! + lin[rgba[t + 2]!]!);
    }
  }
  return { r, g, b, width: ow, height: oh };
}

export function halveLinear(src: LinearPlanes): LinearPlanes {
  const { width, height } = src;
  const ow = (width + 1) >> 1, oh = (height + 1) >> 1;
  const out = { r: new Float32Array(ow * oh), g: new Float32Array(ow * oh), b: new Float32Array(ow * oh) };
  for (const c of ["r", "g", "b"] as const) {
    const s = src[c], o = out[c];
    for (let oy = 0; oy < oh; oy++) {
      const row0 = 2 * oy * width, row1 = Math.min(2 * oy + 1, height - 1) * width;
      for (let ox = 0, i = oy * ow; ox < ow; ox++, i++) {
        const x0 = 2 * ox, x1 = Math.min(x0 + 1, width - 1);
        o[i] = 0.25 * (s[row0 + x0]! + s[row0 + x1]! + s[row1 + x0]! + s[row1 + x1]!);
      }
    }
  }
  return { ...out, width: ow, height: oh };
}

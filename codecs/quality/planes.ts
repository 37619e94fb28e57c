/**
 * Measurement planes. Large images are box-downscaled by an integer factor
 * to at most MEASURE_MAX_PIXELS before measuring: it keeps measuring well
 * under the encode time, at the cost of seeing sub-pixel artefacts only
 * averaged on images over that size.
 */
import type { RgbaImage } from "../jpeg/decode.ts";

export const MEASURE_MAX_PIXELS = 8_000_000;

export interface Plane {
  data: Float32Array;
  width: number;
  height: number;
}

export interface MeasurePlanes {
  luma: Plane;
  /** Lab colour at a further 4× reduction: colour error is judged on areas, not edges. */
  lab: { l: Float32Array; a: Float32Array; b: Float32Array; length: number };
  factor: number;
}

export function measureFactor(width: number, height: number): number {
  return Math.max(1, Math.ceil(Math.sqrt((width * height) / MEASURE_MAX_PIXELS)));
}

export function measurePlanes(image: RgbaImage, factor = measureFactor(image.width, image.height)): MeasurePlanes {
  return { luma: lumaPlane(image, factor), lab: toLab(downscaleRgb(image, factor * 4)), factor };
}

/** Luma (BT.601, as JPEG uses) box-averaged over factor×factor blocks. */
function lumaPlane(image: RgbaImage, factor: number): Plane {
  const width = Math.max(1, Math.floor(image.width / factor));
  const height = Math.max(1, Math.floor(image.height / factor));
  const out = new Float32Array(width * height);
  const src = image.data;
  if (factor === 1) {
    for (let i = 0, p = 0; i < out.length; i++, p += 4) {
      out[i] = 0.299 * src[p]! + 0.587 * src[p + 1]! + 0.114 * src[p + 2]!;
    }
    return { data: out, width, height };
  }
  const inv = 1 / (factor * factor);
  for (let y = 0; y < height; y++) {
    for (let dy = 0; dy < factor; dy++) {
      let p = ((y * factor + dy) * image.width) * 4;
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let dx = 0; dx < factor; dx++, p += 4) sum += 0.299 * src[p]! + 0.587 * src[p + 1]! + 0.114 * src[p + 2]!;
        const o = y * width + x;
        out[o] = out[o]! + sum * inv;
      }
    }
  }
  return { data: out, width, height };
}

function downscaleRgb(image: RgbaImage, factor: number): Float32Array {
  const width = Math.max(1, Math.floor(image.width / factor));
  const height = Math.max(1, Math.floor(image.height / factor));
  const out = new Float32Array(width * height * 3);
  const inv = 1 / (factor * factor);
  const src = image.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0, g = 0, b = 0;
      for (let dy = 0; dy < factor; dy++) {
        let p = ((y * factor + dy) * image.width + x * factor) * 4;
        for (let dx = 0; dx < factor; dx++, p += 4) {
          r += src[p]!;
          g += src[p + 1]!;
          b += src[p + 2]!;
        }
      }
      const o = (y * width + x) * 3;
      out[o] = r * inv;
      out[o + 1] = g * inv;
      out[o + 2] = b * inv;
    }
  }
  return out;
}

/** sRGB byte -> linear light, tabulated (the image is measured in byte steps anyway). */
const LINEAR = Float32Array.from({ length: 256 }, (_, c) => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
});

function toLab(rgb: Float32Array): MeasurePlanes["lab"] {
  const n = rgb.length / 3;
  const l = new Float32Array(n), a = new Float32Array(n), b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = LINEAR[Math.round(rgb[i * 3]!)]!, g = LINEAR[Math.round(rgb[i * 3 + 1]!)]!;
    const bl = LINEAR[Math.round(rgb[i * 3 + 2]!)]!;
    // sRGB D65 -> XYZ, normalised by the white point.
    const x = labF((0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047);
    const y = labF(0.2126 * r + 0.7152 * g + 0.0722 * bl);
    const z = labF((0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883);
    l[i] = 116 * y - 16;
    a[i] = 500 * (x - y);
    b[i] = 200 * (y - z);
  }
  return { l, a, b, length: n };
}

/**
 * CIE Lab's f(t), interpolated from a table: three cube roots per pixel were
 * the slowest part of measuring. Inputs lie in [0, 1] (a tiny overshoot is
 * clamped); the table error is below 1e-5 in f, under 0.002 ΔE.
 */
const LAB_STEPS = 4096;
const LAB_F = Float64Array.from({ length: LAB_STEPS + 2 }, (_, i) => exactLabF(i / LAB_STEPS));

function exactLabF(t: number): number {
  return t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116;
}

function labF(t: number): number {
  const x = Math.min(Math.max(t, 0), 1) * LAB_STEPS;
  const i = Math.floor(x);
  const f0 = LAB_F[i]!;
  return f0 + (LAB_F[i + 1]! - f0) * (x - i);
}

export function halve(plane: Plane): Plane {
  const width = Math.max(1, plane.width >> 1), height = Math.max(1, plane.height >> 1);
  const out = new Float32Array(width * height);
  const s = plane.data, w = plane.width;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = 2 * y * w + 2 * x;
      out[y * width + x] = (s[p]! + s[p + 1]! + s[p + w]! + s[p + w + 1]!) / 4;
    }
  }
  return { data: out, width, height };
}

/**
 * SSIM on luma with 8×8 windows on a grid offset by 4 pixels, so every
 * window straddles JPEG block edges (where blocking shows) and each pixel is
 * read once. Returns the mean and the
 * per-window values (for the worst-region "artifacts" score).
 */
import type { Plane } from "./planes.ts";

const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;
const WINDOW = 8;
const STRIDE = 8;
const OFFSET = 4;

export interface SsimResult {
  mean: number;
  windows: Float32Array;
}

export function ssim(a: Plane, b: Plane): SsimResult {
  const { width, height } = a;
  if (width !== b.width || height !== b.height) throw new Error("SSIM needs planes of equal size");
  if (width < WINDOW + OFFSET || height < WINDOW + OFFSET) {
    const v = globalSsim(a.data, b.data);
    return { mean: v, windows: Float32Array.of(v) };
  }
  const cols = Math.floor((width - OFFSET - WINDOW) / STRIDE) + 1;
  const rows = Math.floor((height - OFFSET - WINDOW) / STRIDE) + 1;
  const windows = new Float32Array(cols * rows);
  const n = WINDOW * WINDOW;
  let total = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
      for (let y = 0; y < WINDOW; y++) {
        let p = (OFFSET + r * STRIDE + y) * width + OFFSET + c * STRIDE;
        for (let x = 0; x < WINDOW; x++, p++) {
          const va = a.data[p]!, vb = b.data[p]!;
          sa += va;
          sb += vb;
          saa += va * va;
          sbb += vb * vb;
          sab += va * vb;
        }
      }
      const v = windowSsim(sa / n, sb / n, saa / n, sbb / n, sab / n);
      windows[r * cols + c] = v;
      total += v;
    }
  }
  return { mean: total / windows.length, windows };
}

function windowSsim(ma: number, mb: number, maa: number, mbb: number, mab: number): number {
  const va = maa - ma * ma, vb = mbb - mb * mb, cov = mab - ma * mb;
  return ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
}

function globalSsim(a: Float32Array, b: Float32Array): number {
  let sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  for (let i = 0; i < a.length; i++) {
    const va = a[i]!, vb = b[i]!;
    sa += va;
    sb += vb;
    saa += va * va;
    sbb += vb * vb;
    sab += va * vb;
  }
  const n = a.length;
  return windowSsim(sa / n, sb / n, saa / n, sbb / n, sab / n);
}

/** The value below which `fraction` of the windows fall. */
export function percentile(values: Float32Array, fraction: number): number {
  const sorted = values.slice().sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 1;
}

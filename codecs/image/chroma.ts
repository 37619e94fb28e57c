/**
 * 4:2:2 emulation. The MozJPEG build sets the luma sampling factor for both
 * axes at once, so true 4:2:2 (2×1) cannot be written. We encode 4:4:4 and
 * first average chroma over horizontal pixel pairs (luma untouched), so the
 * file carries 4:2:2's chroma resolution and the encoder spends almost no
 * bits on horizontal chroma detail.
 */
import type { RgbaImage } from "../jpeg/decode.ts";

export function averageChromaHorizontally(image: RgbaImage): RgbaImage {
  const { width, height } = image;
  const d = new Uint8ClampedArray(image.data);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x + 1 < width; x += 2) {
      const a = (y * width + x) * 4;
      const b = a + 4;
      const ya = luma(d[a]!, d[a + 1]!, d[a + 2]!);
      const yb = luma(d[b]!, d[b + 1]!, d[b + 2]!);
      // Mean colour difference (R-Y, B-Y, G-Y) of the pair, re-added to each pixel's own luma.
      const dr = (d[a]! - ya + d[b]! - yb) / 2;
      const dg = (d[a + 1]! - ya + d[b + 1]! - yb) / 2;
      const db = (d[a + 2]! - ya + d[b + 2]! - yb) / 2;
      d[a] = ya + dr;
      d[a + 1] = ya + dg;
      d[a + 2] = ya + db;
      d[b] = yb + dr;
      d[b + 1] = yb + dg;
      d[b + 2] = yb + db;
    }
  }
  return { data: d, width, height };
}

function luma(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/** Applies an EXIF orientation (1-8) to RGBA pixels, returning an upright image. */
import type { RgbaImage } from "../jpeg/decode.ts";

/**
 * For each orientation, where the upright pixel (x, y) comes from in the
 * stored image of size w×h. 5-8 swap the dimensions.
 */
const SOURCE: Readonly<Record<number, (x: number, y: number, w: number, h: number) => number>> = {
  2: (x, y, w) => y * w + (w - 1 - x), // mirror horizontal
  3: (x, y, w, h) => (h - 1 - y) * w + (w - 1 - x), // rotate 180
  4: (x, y, w, h) => (h - 1 - y) * w + x, // mirror vertical
  5: (x, y, w) => x * w + y, // transpose
  6: (x, y, w, h) => (h - 1 - x) * w + y, // rotate 90 clockwise
  7: (x, y, w, h) => (h - 1 - x) * w + (w - 1 - y), // transverse
  8: (x, y, w) => x * w + (w - 1 - y), // rotate 90 counter-clockwise
};

export function applyOrientation(image: RgbaImage, orientation: number): RgbaImage {
  const source = SOURCE[orientation];
  if (!source) return image;
  const { width: w, height: h } = image;
  const swap = orientation >= 5;
  const outW = swap ? h : w;
  const outH = swap ? w : h;
  // One 32-bit move per pixel.
  const src = new Uint32Array(image.data.buffer, image.data.byteOffset, w * h);
  const out = new Uint32Array(outW * outH);
  for (let y = 0; y < outH; y++) {
    const row = y * outW;
    for (let x = 0; x < outW; x++) out[row + x] = src[source(x, y, w, h)]!;
  }
  return { data: new Uint8ClampedArray(out.buffer), width: outW, height: outH };
}

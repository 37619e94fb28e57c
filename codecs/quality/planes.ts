/**
 * What the pipeline keeps of an image to measure it: the SSIMULACRA 2 pyramid
 * (./ssimulacra2.ts, about 7 bytes per pixel, in the metric's WASM memory: free it
 * when done). Images over MEASURE_MAX_PIXELS are
 * first box-downscaled by an integer factor (averaging sRGB bytes) to bound the
 * memory and time of measuring: past 24 MP, fine artefacts are seen averaged.
 */
import type { RgbaImage } from "../jpeg/decode.ts";
import { type RgbaPixels, type XybPyramid, xybPyramid } from "./ssimulacra2.ts";

export const MEASURE_MAX_PIXELS = 24_000_000;

export interface MeasurePlanes {
  pyramid: XybPyramid;
  factor: number;
  /** Every pixel neutral (R = G = B): the sub-scores use their grayscale calibration (report.ts). */
  grayscale: boolean;
}

export function measureFactor(width: number, height: number): number {
  return Math.max(1, Math.ceil(Math.sqrt((width * height) / MEASURE_MAX_PIXELS)));
}

/**
 * `rebuildable`: the pyramid may be spared during a long encode and rebuilt from `image` (ssimulacra2.ts
 * `spareMetricHeap`); `image` must then stay unchanged and unreleased while the planes live.
 */
export function measurePlanes(
  image: RgbaImage,
  factor = measureFactor(image.width, image.height),
  rebuildable = false,
): MeasurePlanes {
  return {
    pyramid: xybPyramid(factor === 1 ? image : boxDownscale(image, factor), undefined, rebuildable),
    factor,
    grayscale: isNeutral(image),
  };
}

/** R = G = B in every pixel (a grayscale JPEG decodes so; a colour photo stops the scan at once). */
export function isNeutral(image: RgbaPixels): boolean {
  const { data } = image;
  const count = image.width * image.height;
  if (data.byteOffset % 4 !== 0) {
    for (let p = 0; p < count * 4; p += 4) if (data[p] !== data[p + 1] || data[p + 1] !== data[p + 2]) return false;
    return true;
  }
  const pixels = new Uint32Array(data.buffer, data.byteOffset, count);
  for (let i = 0; i < count; i++) {
    const p = pixels[i]!;
    // Little-endian RGBA: R in the low byte. R = G = B when the three bytes repeat.
    if (((p ^ (p >>> 8)) & 0xffff) !== 0) return false;
  }
  return true;
}

function boxDownscale(image: RgbaPixels, factor: number): RgbaPixels {
  const width = Math.max(1, Math.floor(image.width / factor));
  const height = Math.max(1, Math.floor(image.height / factor));
  const out = new Uint8ClampedArray(width * height * 4);
  const src = image.data, inv = 1 / (factor * factor);
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
      const o = (y * width + x) * 4;
      out[o] = r * inv;
      out[o + 1] = g * inv;
      out[o + 2] = b * inv;
      out[o + 3] = 255;
    }
  }
  return { data: out, width, height };
}

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
}

export function measureFactor(width: number, height: number): number {
  return Math.max(1, Math.ceil(Math.sqrt((width * height) / MEASURE_MAX_PIXELS)));
}

export function measurePlanes(image: RgbaImage, factor = measureFactor(image.width, image.height)): MeasurePlanes {
  return { pyramid: xybPyramid(factor === 1 ? image : boxDownscale(image, factor)), factor };
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

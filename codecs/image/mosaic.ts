/**
 * A small stand-in for a large image, for predicting how its score moves with
 * the quality setting: square tiles cut at evenly spread places, at full
 * resolution (the metric is not scale-invariant, so no downscaling), laid out
 * side by side. Tiles start on 16-pixel boundaries, so each tile's JPEG blocks
 * and 4:2:0 macroblocks are the ones the full image's encode would use.
 */
import type { RgbaImage } from "../jpeg/decode.ts";

export const MOSAIC_TILE = 128;

/** A mosaic holds 1/12 of the image's pixels, at most 40 tiles (0.66 MP) and at least 6. */
const SHARE = 12;
const MAX_TILES = 40;
const MIN_TILES = 6;

/** Null when the image is too small (under about 1.2 MP) for a mosaic to pay for itself. */
export function mosaicOf(image: RgbaImage): RgbaImage | null {
  const { width, height } = image;
  const across = Math.floor(width / MOSAIC_TILE), down = Math.floor(height / MOSAIC_TILE);
  const tiles = Math.min(MAX_TILES, Math.floor((width * height) / SHARE / (MOSAIC_TILE * MOSAIC_TILE)), across * down);
  if (tiles < MIN_TILES) return null;
  // A grid of tiles in the image's own proportions, spread evenly (cell centres), snapped to 16 px.
  const cols = Math.max(1, Math.min(across, Math.round(Math.sqrt((tiles * width) / height))));
  const rows = Math.max(1, Math.min(down, Math.floor(tiles / cols)));
  const snap = (v: number, max: number) => Math.max(0, Math.min(Math.floor(max / 16) * 16, Math.round(v / 16) * 16));
  const out = new Uint8ClampedArray(cols * rows * MOSAIC_TILE * MOSAIC_TILE * 4);
  const outWidth = cols * MOSAIC_TILE;
  const rowBytes = MOSAIC_TILE * 4;
  for (let ty = 0; ty < rows; ty++) {
    const sy = snap(((ty + 0.5) * height) / rows - MOSAIC_TILE / 2, height - MOSAIC_TILE);
    for (let tx = 0; tx < cols; tx++) {
      const sx = snap(((tx + 0.5) * width) / cols - MOSAIC_TILE / 2, width - MOSAIC_TILE);
      for (let y = 0; y < MOSAIC_TILE; y++) {
        const from = ((sy + y) * width + sx) * 4;
        const to = ((ty * MOSAIC_TILE + y) * outWidth + tx * MOSAIC_TILE) * 4;
        out.set(image.data.subarray(from, from + rowBytes), to);
      }
    }
  }
  return { data: out, width: outWidth, height: rows * MOSAIC_TILE };
}

import assert from "node:assert/strict";
import { MOSAIC_TILE, mosaicOf } from "../../codecs/image/mosaic.ts";

/** An image whose every pixel encodes its own position, so a tile's source can be read back. */
function positional(width: number, height: number) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      data[p] = x & 255;
      data[p + 1] = y & 255;
      data[p + 2] = ((x >> 8) << 4) | (y >> 8);
      data[p + 3] = 255;
    }
  }
  return { data, width, height };
}

const sourceOf = (data: Uint8ClampedArray, p: number) => ({
  x: data[p]! | ((data[p + 2]! >> 4) << 8),
  y: data[p + 1]! | ((data[p + 2]! & 15) << 8),
});

Deno.test("a mosaic is whole full-resolution tiles cut on 16-pixel boundaries, spread over the image", () => {
  const image = positional(3000, 2000);
  const mosaic = mosaicOf(image)!;
  assert.equal(mosaic.width % MOSAIC_TILE, 0);
  assert.equal(mosaic.height % MOSAIC_TILE, 0);
  const tiles = (mosaic.width / MOSAIC_TILE) * (mosaic.height / MOSAIC_TILE);
  assert.ok(tiles >= 6 && tiles <= 40, `${tiles} tiles`);
  assert.ok(mosaic.width * mosaic.height <= (image.width * image.height) / 12);
  const starts: { x: number; y: number }[] = [];
  for (let ty = 0; ty < mosaic.height; ty += MOSAIC_TILE) {
    for (let tx = 0; tx < mosaic.width; tx += MOSAIC_TILE) {
      const at = (ty * mosaic.width + tx) * 4;
      const start = sourceOf(mosaic.data, at);
      assert.equal(start.x % 16, 0);
      assert.equal(start.y % 16, 0);
      // Inside a tile, pixels are the source's neighbours, unscaled.
      const last = ((ty + MOSAIC_TILE - 1) * mosaic.width + tx + MOSAIC_TILE - 1) * 4;
      assert.deepEqual(sourceOf(mosaic.data, last), { x: start.x + MOSAIC_TILE - 1, y: start.y + MOSAIC_TILE - 1 });
      starts.push(start);
    }
  }
  // Spread: tiles reach into every quarter of the image.
  for (const [qx, qy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
    assert.ok(
      starts.some((s) => Math.floor((2 * s.x) / image.width) === qx && Math.floor((2 * s.y) / image.height) === qy),
      `no tile in quarter ${qx},${qy}`,
    );
  }
});

Deno.test("images under about 1.2 MP get no mosaic: they are probed whole", () => {
  assert.equal(mosaicOf(positional(1000, 1000)), null);
  assert.ok(mosaicOf(positional(1400, 1000)));
});

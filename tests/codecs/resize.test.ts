/** Resize (issue 30, item 2): the box, the resampler, and resizing inside a job. */
import assert from "node:assert/strict";
import sharp from "sharp";
import { planResize, planTo, resample } from "../../codecs/image/resize.ts";
import { decodeJpegPixels, type RgbaImage } from "../../codecs/jpeg/decode.ts";
import { compressImage, scoreImage } from "../../codecs/pipeline/compress.ts";
import { inspectJpeg } from "../../codecs/mod.ts";
import { fixture, settings } from "./helpers.ts";

const box = (maxWidth: number | null, maxHeight: number | null, fit: "inside" | "cover" = "inside") => ({
  maxWidth,
  maxHeight,
  fit,
});
const size = (p: { width: number; height: number } | null) => p && [p.width, p.height];

Deno.test("inside keeps the aspect within the box and never enlarges; one side alone bounds that side", () => {
  assert.deepEqual(size(planResize(4000, 3000, box(1280, null))), [1280, 960]);
  assert.deepEqual(size(planResize(4000, 3000, box(null, 600))), [800, 600]);
  assert.deepEqual(size(planResize(4000, 3000, box(1000, 1000))), [1000, 750]);
  assert.deepEqual(size(planResize(3000, 4000, box(1000, 1000))), [750, 1000]);
  assert.equal(planResize(800, 600, box(1280, 1280)), null, "smaller than the box: untouched");
  assert.equal(planResize(800, 600, box(null, null)), null);
  assert.deepEqual(planResize(4000, 3000, box(1280, null))!.crop, { x: 0, y: 0, width: 4000, height: 3000 });
});

Deno.test("cover fills the box exactly with a centred crop, and crops a smaller source to the box's shape", () => {
  const plan = planResize(4000, 3000, box(1000, 1000, "cover"))!;
  assert.deepEqual(size(plan), [1000, 1000]);
  assert.deepEqual(plan.crop, { x: 500, y: 0, width: 3000, height: 3000 });
  const wide = planResize(4000, 3000, box(1600, 400, "cover"))!;
  assert.deepEqual(size(wide), [1600, 400]);
  assert.deepEqual(wide.crop, { x: 0, y: 1000, width: 4000, height: 1000 });
  // Never enlarged: 800×600 into 1000×1000 becomes 600×600 from the middle.
  const small = planResize(800, 600, box(1000, 1000, "cover"))!;
  assert.deepEqual(size(small), [600, 600]);
  assert.deepEqual(small.crop, { x: 100, y: 0, width: 600, height: 600 });
  assert.deepEqual(size(planResize(4000, 3000, box(1000, null, "cover"))), [1000, 750], "one side: as inside");
});

Deno.test("planTo rebuilds a job's resize from the result's size alone", () => {
  for (const b of [box(1280, null), box(1000, 1000, "cover"), box(1600, 400, "cover"), box(333, 777)]) {
    const plan = planResize(4000, 3000, b)!;
    assert.deepEqual(planTo({ width: 4000, height: 3000 }, plan.width, plan.height), plan, JSON.stringify(b));
  }
  assert.equal(planTo({ width: 10, height: 10 }, 10, 10), null);
});

Deno.test("the resampler keeps a flat colour flat (every 8-bit value round-trips linear light)", () => {
  for (const value of [0, 1, 17, 128, 200, 254, 255]) {
    const data = new Uint8ClampedArray(97 * 61 * 4).fill(value);
    const out = resample({ data, width: 97, height: 61 }, planResize(97, 61, box(40, null))!);
    assert.deepEqual([out.width, out.height], [40, 25]);
    for (let i = 0; i < out.data.length; i += 4) assert.equal(out.data[i], value, `value ${value}`);
  }
});

/** Mean absolute difference of the RGB channels. */
function meanDifference(a: RgbaImage, b: RgbaImage): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    for (let c = 0; c < 3; c++) sum += Math.abs(a.data[i + c]! - b.data[i + c]!);
  }
  return sum / ((a.data.length / 4) * 3);
}

Deno.test("a photo resized by ours is within 1.5 levels of libvips' Lanczos3 in linear light (sharp)", async () => {
  const bytes = await fixture("base.jpg");
  const image = await decodeJpegPixels(bytes);
  const ours = resample(image, planResize(image.width, image.height, box(51, null))!);
  const raw = await sharp(bytes).pipelineColorspace("scrgb").resize(ours.width, ours.height, { kernel: "lanczos3" })
    .toColorspace("srgb").ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  assert.deepEqual([raw.info.width, raw.info.height], [ours.width, ours.height]);
  const vips = { data: new Uint8ClampedArray(raw.data), width: raw.info.width, height: raw.info.height };
  const diff = meanDifference(ours, vips);
  assert.ok(diff < 1.5, `mean difference ${diff.toFixed(2)}`);
});

Deno.test("fine black-and-white stripes halve to the grey of half the light (188), not the gamma average (128)", () => {
  const width = 64, height = 8;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const v = (i % width) % 2 === 0 ? 255 : 0;
    data.set([v, v, v, 255], i * 4);
  }
  const out = resample({ data, width, height }, planResize(width, height, box(32, null))!);
  const middle = out.data[(2 * out.width + 16) * 4]!;
  assert.ok(Math.abs(middle - 188) <= 2, `grey ${middle}`);
});

Deno.test("a job resizes the upright pixels before encoding, and its score is against the resized original", async () => {
  // orientation-6: stored 32×64, upright 64×32.
  const result = await compressImage(new AbortController().signal, {
    bytes: await fixture("orientation-6.jpg"),
    settings: settings({ maxWidth: 40 }),
    maxPixels: 50e6,
  });
  assert.deepEqual([result.width, result.height], [40, 20]);
  const info = inspectJpeg(result.bytes);
  assert.deepEqual([info.width, info.height, info.orientation], [40, 20, 1]);
  assert.ok(result.quality!.score > 60, `score ${result.quality!.score}`);
  // The deferred score rebuilds the same resized original from the result's size.
  const later = await scoreImage(new AbortController().signal, await fixture("orientation-6.jpg"), result.bytes);
  assert.equal(later.score, result.quality!.score);
});

Deno.test("a resized result is returned even where it is not smaller; unresized, never bigger still holds", async () => {
  const bytes = await fixture("base.jpg");
  const big = { quality: 100, chromaSubsampling: "4:4:4" as const };
  const run = (over: Parameters<typeof settings>[0]) =>
    compressImage(new AbortController().signal, { bytes, settings: settings(over), maxPixels: 50e6 });
  const kept = await run(big);
  assert.equal(kept.keptOriginal, true);
  const resized = await run({ ...big, maxWidth: 127 });
  assert.equal(resized.keptOriginal, false);
  assert.equal(resized.width, 127);
  assert.ok(resized.compressedSize >= bytes.length * 0.8, `${resized.compressedSize} of ${bytes.length}`);
});

Deno.test("cover crops the middle: the result's centre matches the source's centre", async () => {
  const bytes = await fixture("base.jpg"); // 128×96
  const result = await compressImage(new AbortController().signal, {
    bytes,
    settings: settings({ maxWidth: 48, maxHeight: 48, fit: "cover", quality: 95 }),
    maxPixels: 50e6,
  });
  assert.deepEqual([result.width, result.height], [48, 48]);
});

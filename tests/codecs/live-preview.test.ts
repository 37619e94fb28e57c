/**
 * The live preview's engine (codecs/pipeline/preview.ts, issue 24 item 1) against the job pipeline: the same
 * settings give the same file size and the same SSIMULACRA 2 as `compressImage`, from one decode of the original.
 */
import assert from "node:assert/strict";
import { compressImage } from "../../codecs/pipeline/compress.ts";
import { alignCrop, PreviewSession } from "../../codecs/pipeline/preview.ts";
import { inspectJpeg } from "../../codecs/container/inspect.ts";
import { decodeWebpPixels } from "../../codecs/webp/decode.ts";
import type { CompressSettings } from "../../contract/settings.ts";
import { fixture, settings } from "./helpers.ts";

const CASES: [string, Partial<CompressSettings>][] = [
  ["base.jpg", {}],
  ["base.jpg", { quality: 55, encoder: "jpegli", chromaSubsampling: "4:4:4", progressive: true }],
  ["base.jpg", { quality: 70, chromaSubsampling: "4:2:2" }],
  ["base.jpg", { quality: 75, format: "webp" }],
  ["exif-gps.jpg", { quality: 60, stripMetadata: false }],
  ["grayscale.jpg", { quality: 50 }],
];

Deno.test("a full-size prediction is the job's size and score for the same settings", async () => {
  for (const name of new Set(CASES.map(([n]) => n))) {
    const bytes = await fixture(name);
    const session = await PreviewSession.open(bytes);
    try {
      for (const [, overrides] of CASES.filter(([n]) => n === name)) {
        const s = settings(overrides);
        let early = -1;
        const predicted = await session.full(s, (size) => early = size);
        const job = await compressImage(new AbortController().signal, { bytes, settings: s, maxPixels: 50e6 });
        const what = `${name} ${JSON.stringify(overrides)}`;
        assert.equal(predicted.size, job.compressedSize, what);
        assert.equal(early, predicted.size, `${what}: the size is told before the score`);
        assert.equal(predicted.keptOriginal, job.keptOriginal, what);
        assert.deepEqual(predicted.report, job.quality, what);
      }
    } finally {
      session.close();
    }
  }
});

Deno.test("a target's prediction runs the job's own search", async () => {
  const bytes = await fixture("base.jpg");
  const session = await PreviewSession.open(bytes);
  try {
    const s = settings({ target: { kind: "quality", score: 85 } });
    const predicted = await session.full(s);
    const job = await compressImage(new AbortController().signal, { bytes, settings: s, maxPixels: 50e6 });
    assert.equal(predicted.size, job.compressedSize);
    assert.equal(predicted.chosenQuality, job.chosenQuality);
    assert.equal(predicted.encoder, job.encoder);
  } finally {
    session.close();
  }
});

Deno.test("a crop is the visible region on the 16-px grid, encoded with the settings' codec", async () => {
  const bytes = await fixture("base.jpg");
  const session = await PreviewSession.open(bytes);
  try {
    const { width, height } = session;
    const crop = await session.crop(settings({ quality: 40 }), { x: 21, y: 35, width: 40, height: 30 });
    assert.deepEqual([crop.x, crop.y, crop.width, crop.height], [16, 32, 40, 30]);
    const info = inspectJpeg(crop.bytes);
    assert.deepEqual([info.width, info.height], [40, 30]);
    const webp = await session.crop(settings({ format: "webp" }), { x: 0, y: 0, width: 24, height: 24 });
    assert.equal(webp.mimeType, "image/webp");
    assert.equal((await decodeWebpPixels(webp.bytes)).width, 24);
    // Past the edges: clamped inside the image.
    assert.deepEqual(alignCrop({ x: width, y: height, width: 64, height: 64 }, width, height), {
      x: width - 64,
      y: height - 64,
      width: 64,
      height: 64,
    });
  } finally {
    session.close();
  }
});

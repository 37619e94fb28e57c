/**
 * Chroma is part of a score goal's search (issue 31, item 2): on sharp colour detail a 4:4:4 source keeps at full
 * resolution, 4:2:0 cannot reach the goal at any quality, so full chroma is searched too; a goal no setting of
 * the format reaches is delivered at the best score found, and the job says so.
 */
import assert from "node:assert/strict";
import { inspectJpeg } from "../../codecs/mod.ts";
import { encodeJpegPixels } from "../../codecs/jpeg/encode.ts";
import { mozJpegOptions } from "../../codecs/jpeg/options.ts";
import { decodeJpegPixels } from "../../codecs/jpeg/decode.ts";
import { compressImage, encodeOutput, newTimings } from "../../codecs/pipeline/compress.ts";
import { compressJob } from "../../codecs/pipeline/web-set.ts";
import { measurePlanes } from "../../codecs/quality/planes.ts";
import { goalNote } from "../../contract/jobs.ts";
import { type CompressSettings, DEFAULT_SAVED_SETTINGS } from "../../contract/settings.ts";
import { settings } from "./helpers.ts";

/** Red and blue stripes two pixels wide over a soft green ramp, as a 4:4:4 q99 JPEG. */
async function colourStripes(width = 800, height = 600): Promise<Uint8Array> {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4, stripe = (x >> 1) % 2;
      data.set([stripe ? 230 : 40, 60 + (y * 100) / height, stripe ? 40 : 230, 255], i);
    }
  }
  return await encodeJpegPixels(
    { data, width, height },
    mozJpegOptions(settings({ chromaSubsampling: "4:4:4" }), 99, false),
  );
}

const auto = async (bytes: Uint8Array, overrides: Partial<CompressSettings>) =>
  await compressImage(new AbortController().signal, {
    bytes,
    settings: settings({ target: { kind: "auto" }, ...overrides }),
    maxPixels: 50e6,
  });

Deno.test("auto on colour detail 4:2:0 cannot hold: JPEG and AVIF search 4:4:4 and reach the goal", async () => {
  const bytes = await colourStripes();
  const jpeg = await auto(bytes, { format: "jpeg" });
  assert.ok(jpeg.quality!.ssimulacra2 >= 80, `JPEG reached ${jpeg.quality!.ssimulacra2}`);
  assert.equal(inspectJpeg(jpeg.bytes).chromaSubsampling, "4:4:4");
  assert.ok(jpeg.compressedSize < bytes.length);
  const avif = await auto(bytes, { format: "avif" });
  assert.ok(avif.quality!.ssimulacra2 >= 80, `AVIF reached ${avif.quality!.ssimulacra2}`);
  assert.equal(goalNote(settings({ target: { kind: "auto" } }), jpeg.quality), null);
});

Deno.test("a goal no setting of the format reaches is delivered at the best score found, with a note", async () => {
  // Lossy WebP is 4:2:0 only: these stripes stay below 80 at every quality.
  const webp = await auto(await colourStripes(), { format: "webp" });
  const score = webp.quality!.ssimulacra2;
  assert.ok(score < 80, String(score));
  assert.equal(webp.chosenQuality, 100, "the best it could do");
  assert.equal(
    goalNote(settings({ format: "webp", target: { kind: "auto" } }), webp.quality),
    `no setting reached SSIMULACRA 2 80 on this photo: the best reached ${Math.floor(score * 10) / 10}`,
  );
  assert.equal(goalNote(settings({ target: null }), webp.quality), null, "no goal, no note");
});

/** One auto output of `bytes` through encodeOutput: its result and the full-size encodes it made. */
async function autoOutput(bytes: Uint8Array, fullChromaFirst: boolean) {
  const info = inspectJpeg(bytes);
  const image = await decodeJpegPixels(bytes);
  const planes = measurePlanes(image);
  const timings = newTimings(0);
  try {
    const out = await encodeOutput(new AbortController().signal, image, {
      info,
      settings: settings({ target: { kind: "auto" } }),
      planes,
      timings,
      onProgress: () => {},
      fullChromaFirst,
    });
    return { out, probes: timings.probes };
  } finally {
    planes.pyramid.free();
  }
}

Deno.test("full chroma a larger rendition needed is searched first: the same 4:4:4 result, fewer full-size encodes", async () => {
  // 400×300: under the mosaic's size, so the halved chroma is searched at full size first.
  const bytes = await colourStripes(400, 300);
  const searched = await autoOutput(bytes, false), hinted = await autoOutput(bytes, true);
  assert.equal(searched.out.chroma, "4:4:4");
  assert.equal(hinted.out.chroma, "4:4:4");
  assert.deepEqual(hinted.out.chosen.bytes, searched.out.chosen.bytes);
  assert.ok(hinted.probes < searched.probes, `${hinted.probes} full encodes hinted, ${searched.probes} not`);
});

Deno.test("where the mosaic shows halved chroma out of reach, no full-size encode tries it", async () => {
  // 1600×1000 has a mosaic: it reads 4:2:0 below the goal at every quality, so the search goes to 4:4:4 at
  // once, exactly as when full chroma is searched first.
  const bytes = await colourStripes(1600, 1000);
  const searched = await autoOutput(bytes, false), hinted = await autoOutput(bytes, true);
  assert.equal(searched.out.chroma, "4:4:4");
  assert.ok(searched.out.chosen.score >= 80, String(searched.out.chosen.score));
  assert.deepEqual(searched.out.chosen.bytes, hinted.out.chosen.bytes);
  assert.equal(searched.probes, hinted.probes, "no 4:2:0 probe before the 4:4:4 ones");
});

Deno.test("a web set of a 4:4:4 source keeps full chroma at every width, every file at the goal", async () => {
  const result = await compressJob(new AbortController().signal, {
    bytes: await colourStripes(),
    settings: { ...DEFAULT_SAVED_SETTINGS, widths: [800, 400], formats: ["jpeg"] },
    maxPixels: 50e6,
  });
  assert.deepEqual(result.set!.map((f) => f.width), [800, 400]);
  for (const file of result.set!) {
    assert.equal(inspectJpeg(file.bytes).chromaSubsampling, "4:4:4", `${file.width} px`);
    assert.ok(file.score >= 80, `${file.width} px scored ${file.score}`);
  }
});

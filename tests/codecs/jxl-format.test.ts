/**
 * format=jxl through the pipeline (issue 32, items 2, 3 and 5): the JPEG these settings make, or the upload
 * itself (`archive`), losslessly as JPEG XL; its score is the JPEG's; web sets add each width's JPEG as JPEG XL.
 */
import assert from "node:assert/strict";
import { compressImage, scoreImage } from "../../codecs/pipeline/compress.ts";
import { compressJob } from "../../codecs/pipeline/web-set.ts";
import { jxlToJpeg } from "../../codecs/jxl/lossless.ts";
import { CodecError, sniffFormat } from "../../codecs/mod.ts";
import { type CompressSettings, DEFAULT_SAVED_SETTINGS } from "../../contract/settings.ts";
import { fixture, settings } from "./helpers.ts";

const signal = new AbortController().signal;
const run = async (bytes: Uint8Array, overrides: Partial<CompressSettings>) =>
  await compressImage(signal, { bytes, settings: settings(overrides), maxPixels: 50e6 });

Deno.test("format=jxl is the JPEG the same settings make, losslessly: smaller, the same score, restored byte for byte", async () => {
  const bytes = await fixture("metadata-all.jpg");
  for (const overrides of [{ quality: 70 }, { target: { kind: "auto" } as const }, { maxWidth: 100 }]) {
    const jpeg = await run(bytes, { ...overrides, format: "jpeg", stripMetadata: false });
    const jxl = await run(bytes, { ...overrides, format: "jxl", stripMetadata: false });
    assert.equal(jxl.mimeType, "image/jxl");
    assert.equal(jxl.extension, "jxl");
    assert.equal(sniffFormat(jxl.bytes), "jxl");
    assert.equal(jxl.heldSize, jpeg.compressedSize, "it holds the JPEG job's result");
    assert.ok(jxl.compressedSize < jpeg.compressedSize, `${jxl.compressedSize} < ${jpeg.compressedSize}`);
    assert.deepEqual(jxlToJpeg(jxl.bytes), jpeg.bytes, "the JPEG comes back byte for byte");
    assert.equal(jxl.quality!.ssimulacra2, jpeg.quality!.ssimulacra2, "the same pixels, the same score");
    assert.deepEqual([jxl.width, jxl.height], [jpeg.width, jpeg.height]);
    // A deferred score measures the JPEG the stored JPEG XL holds.
    const deferred = await scoreImage(signal, bytes, jxl.bytes);
    assert.equal(deferred.ssimulacra2, jpeg.quality!.ssimulacra2);
  }
});

Deno.test("archive: the upload itself as JPEG XL, untouched: restored to the uploaded bytes, score 100, all metadata", async () => {
  for (const name of ["metadata-all.jpg", "progressive.jpg", "orientation-6.jpg", "grayscale.jpg"]) {
    const bytes = await fixture(name);
    const archived = await run(bytes, { format: "jxl", archive: true });
    assert.equal(archived.mimeType, "image/jxl");
    assert.deepEqual(jxlToJpeg(archived.bytes), bytes, `${name} comes back as uploaded`);
    assert.equal(archived.heldSize, bytes.length);
    assert.equal(archived.quality!.ssimulacra2, 100);
    assert.deepEqual(archived.metadata.removed, []);
    assert.ok(archived.thumbnail.length > 0);
  }
});

Deno.test("archive refuses an arithmetic-coded JPEG (neither our decoder nor libjxl takes one) with its reason", async () => {
  const ppm = await new Deno.Command("djpeg", { args: ["-ppm", "tests/fixtures/base.jpg"], stdout: "piped" }).output();
  const child = new Deno.Command("cjpeg", { args: ["-arithmetic"], stdin: "piped", stdout: "piped" }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(ppm.stdout);
  await writer.close();
  const arithmetic = (await child.output()).stdout;
  await assert.rejects(
    run(arithmetic, { format: "jxl", archive: true }),
    (err: Error) => err instanceof CodecError && /arithmetic/.test(err.message),
  );
  // The next archive in the same process still works.
  const bytes = await fixture("base.jpg");
  assert.deepEqual(jxlToJpeg((await run(bytes, { format: "jxl", archive: true })).bytes), bytes);
});

Deno.test("a web set with jxl holds each width's JPEG as JPEG XL, without another search", async () => {
  const bytes = await fixture("base.jpg"); // 128×96
  const result = await compressJob(signal, {
    bytes,
    settings: { ...DEFAULT_SAVED_SETTINGS, widths: [64, 100], formats: ["jxl", "jpeg"] },
    maxPixels: 50e6,
  });
  const files = result.set!;
  assert.deepEqual(files.map((f) => `${f.format}-${f.width}`).sort(), ["jpeg-100", "jpeg-64", "jxl-100", "jxl-64"]);
  for (const jxl of files.filter((f) => f.format === "jxl")) {
    const jpeg = files.find((f) => f.format === "jpeg" && f.width === jxl.width)!;
    assert.deepEqual(jxlToJpeg(jxl.bytes), jpeg.bytes, `${jxl.width} px: the same JPEG`);
    assert.equal(jxl.score, jpeg.score);
  }
});

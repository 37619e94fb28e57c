import assert from "node:assert/strict";
import { CodecError, inspectJpeg, sniffFormat, structureProblem, surveyJpeg } from "../../codecs/mod.ts";
import { afterSoi, fillerSegments, lateFrame, scanBomb, tinySegments } from "../setup/hostile-jpegs.ts";
import { fixture } from "./helpers.ts";
import { minimumBytesFor } from "../../codecs/container/inspect.ts";

Deno.test("sniffFormat recognises JPEG, PNG, GIF, WebP and empty input from magic bytes", async () => {
  assert.equal(sniffFormat(await fixture("base.jpg")), "jpeg");
  assert.equal(sniffFormat(await fixture("png-renamed.jpg")), "png");
  assert.equal(sniffFormat(new TextEncoder().encode("GIF89a....")), "gif");
  assert.equal(sniffFormat(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 ")), "webp");
  assert.equal(sniffFormat(new Uint8Array()), "empty");
});

Deno.test("inspectJpeg reads size, frame type and components without decoding", async () => {
  const base = inspectJpeg(await fixture("base.jpg"));
  assert.deepEqual([base.width, base.height, base.sofType, base.components.length], [128, 96, "baseline", 3]);
  assert.equal(base.chromaSubsampling, "4:2:0");
  const progressive = inspectJpeg(await fixture("progressive.jpg"));
  assert.equal(progressive.sofType, "progressive");
  assert.ok(progressive.scanCount > 1);
  assert.equal(inspectJpeg(await fixture("grayscale.jpg")).colorSpace, "grayscale");
  // ImageMagick writes Adobe transform 2, i.e. YCCK: both are CMYK-family.
  assert.ok(["cmyk", "ycck"].includes(inspectJpeg(await fixture("cmyk.jpg")).colorSpace));
  assert.equal(inspectJpeg(await fixture("sampling-444.jpg")).chromaSubsampling, "4:4:4");
});

Deno.test("inspectJpeg reads EXIF orientation in both byte orders", async () => {
  for (let n = 1; n <= 8; n++) assert.equal(inspectJpeg(await fixture(`orientation-${n}.jpg`)).orientation, n);
  const intel = inspectJpeg(await fixture("orientation-6-intel.jpg"));
  assert.equal(intel.orientation, 6);
  assert.deepEqual([intel.displayWidth, intel.displayHeight], [64, 32]);
});

Deno.test("inspectJpeg lists EXIF, GPS, XMP, IPTC, ICC and comment segments", async () => {
  const info = inspectJpeg(await fixture("metadata-all.jpg"));
  for (const kind of ["exif", "gps", "xmp", "iptc", "icc", "comment"] as const) {
    assert.ok(info.metadata.includes(kind), kind);
  }
  assert.ok(inspectJpeg(await fixture("exif-gps.jpg")).metadata.includes("gps"));
});

Deno.test("inspectJpeg refuses broken and foreign files with clear messages", () => {
  const cases: [string, string, RegExp][] = [
    ["png-renamed.jpg", "unsupported_format", /^The file is not a JPEG image \(it looks like a PNG image\)$/],
    ["empty.jpg", "unsupported_format", /^The file is empty$/],
    ["header-only.jpg", "corrupt_image", /^Cannot decode the image: the file ends before its image data$/],
    ["truncated.jpg", "corrupt_image", /^Cannot decode the image: the file is truncated inside its image data$/],
  ];
  for (const [name, code, message] of cases) {
    assert.throws(() => inspectJpeg(Deno.readFileSync(new URL(`../fixtures/${name}`, import.meta.url))), (error) => {
      assert.ok(error instanceof CodecError);
      assert.equal(error.code, code, name);
      assert.match(error.message, message);
      return true;
    });
  }
});

Deno.test("inspectJpeg reports a 60000×60000 header without allocating pixels", async () => {
  const info = inspectJpeg(await fixture("huge-dimensions.jpg"));
  assert.deepEqual([info.width, info.height], [60000, 60000]);
});

Deno.test("surveyJpeg finds the frame header wherever it is and counts without keeping segments", async () => {
  assert.deepEqual(surveyJpeg(await fixture("huge-dimensions.jpg")).frame, { width: 60000, height: 60000 });
  const base = await fixture("metadata-all.jpg");
  const sof = inspectJpeg(base).segments.find((s) => s.marker === 0xc0)!;
  assert.deepEqual(surveyJpeg(base.subarray(0, sof.end)).frame, { width: 128, height: 96 }, "a head to the frame");
  assert.equal(surveyJpeg(base.subarray(0, sof.start)).frame, null, "a head that stops before it has none");
  assert.equal(surveyJpeg(await fixture("png-renamed.jpg")).frame, null);
  // M2: 9 × 64 KB segments (576 KB) before a 10001×10000 frame header.
  const late = lateFrame(await fixture("base.jpg"), { width: 10001, height: 10000 });
  assert.equal(surveyJpeg(late.subarray(0, 512 * 1024)).frame, null, "the first 512 KB do not reach it");
  const survey = surveyJpeg(late);
  assert.deepEqual(survey.frame, { width: 10001, height: 10000 });
  assert.equal(survey.scans, 1);
  assert.ok(survey.metadataBytes > 9 * 65_000);
});

Deno.test("a file past the structure limits is refused by the survey and by the pipeline's walk", async () => {
  const base = await fixture("base.jpg");
  const cases: [string, Uint8Array, RegExp][] = [
    ["2M tiny segments (M1)", tinySegments(base, 2_000_000), /more than 4096 marker segments/],
    ["300 scans", scanBomb(base, 300), /more than 256 scans/],
  ];
  for (const [what, bytes, message] of cases) {
    assert.match(structureProblem(surveyJpeg(bytes))?.message ?? "", message, what);
    assert.throws(() => inspectJpeg(bytes), (e) => e instanceof CodecError && message.test(e.message), what);
  }
  const fine = tinySegments(base, 4000);
  assert.equal(structureProblem(surveyJpeg(fine)), null, "4000 segments are within the limit");
  assert.equal(inspectJpeg(fine).width, 128);
});

Deno.test("metadata out of proportion to the image is refused with the line it crossed", async () => {
  const base = await fixture("base.jpg");
  const heavy = afterSoi(base, ...fillerSegments(65)); // 4.1 MB on a 128×96 image
  const problem = structureProblem(surveyJpeg(heavy));
  assert.equal(problem?.code, "metadata_too_large");
  assert.match(problem!.message, /carries 4\.1 MB of metadata for a 128×96 image; at most 4\.0 MB/);
  assert.equal(structureProblem(surveyJpeg(afterSoi(base, ...fillerSegments(60)))), null, "3.8 MB is accepted");
});

Deno.test("minimumBytesFor counts one bit per 8×8 block of the most detailed component", () => {
  const ycc420 = [{ id: 1, h: 2, v: 2 }, { id: 2, h: 1, v: 1 }, { id: 3, h: 1, v: 1 }];
  assert.equal(minimumBytesFor({ width: 7071, height: 7071, components: ycc420 }), Math.ceil((884 * 884) / 8));
  assert.equal(minimumBytesFor({ width: 16, height: 16, components: [{ id: 1, h: 1, v: 1 }] }), 1);
});

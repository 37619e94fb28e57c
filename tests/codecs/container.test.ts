import assert from "node:assert/strict";
import { CodecError, inspectJpeg, peekJpegSize, sniffFormat } from "../../codecs/mod.ts";
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

Deno.test("peekJpegSize reads dimensions from the head of a file without needing the rest", async () => {
  assert.deepEqual(peekJpegSize(await fixture("huge-dimensions.jpg")), { width: 60000, height: 60000 });
  const base = await fixture("metadata-all.jpg");
  const sof = inspectJpeg(base).segments.find((s) => s.marker === 0xc0)!;
  assert.deepEqual(
    peekJpegSize(base.subarray(0, sof.end)),
    { width: 128, height: 96 },
    "the head up to the frame is enough",
  );
  assert.equal(peekJpegSize(base.subarray(0, sof.start)), null, "a head that stops before it is not");
  assert.equal(peekJpegSize(await fixture("png-renamed.jpg")), null);
});

Deno.test("minimumBytesFor counts one bit per 8×8 block of the most detailed component", () => {
  const ycc420 = [{ id: 1, h: 2, v: 2 }, { id: 2, h: 1, v: 1 }, { id: 3, h: 1, v: 1 }];
  assert.equal(minimumBytesFor({ width: 7071, height: 7071, components: ycc420 }), Math.ceil((884 * 884) / 8));
  assert.equal(minimumBytesFor({ width: 16, height: 16, components: [{ id: 1, h: 1, v: 1 }] }), 1);
});

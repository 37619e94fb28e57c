/**
 * The ICC profile and EXIF spliced into AVIF output (codecs/container/avif-metadata.ts), read back by
 * Debian's avifdec (libavif) and by a HEIF reader's steps: the profile byte for byte, EXIF with the
 * orientation reset to 1, offsets still right (the image decodes the same), stripMetadata obeyed.
 */
import assert from "node:assert/strict";
import { decodeAvifPixels } from "../../codecs/avif/decode.ts";
import { encodeAvifPixels } from "../../codecs/avif/encode.ts";
import { addAvifMetadata } from "../../codecs/container/avif-metadata.ts";
import { readExif } from "../../codecs/container/exif.ts";
import { joinIcc } from "../../codecs/container/icc.ts";
import { classifySegment } from "../../codecs/container/metadata-kinds.ts";
import { inspectJpeg } from "../../codecs/mod.ts";
import { compressImage } from "../../codecs/pipeline/compress.ts";
import type { CompressSettings } from "../../contract/settings.ts";
import { avifInfo, colourProperties, itemsOfType, nativeDecode } from "./avif-helpers.ts";
import { fixture, settings } from "./helpers.ts";

const avif = async (name: string, overrides: Partial<CompressSettings> = {}) =>
  compressImage(new AbortController().signal, {
    bytes: await fixture(name),
    settings: settings({ format: "avif", quality: 70, ...overrides }),
    maxPixels: 50e6,
  });

const sourceIcc = async (name: string) =>
  joinIcc(inspectJpeg(await fixture(name)).segments.filter((s) => classifySegment(s) === "icc"));

/** The TIFF data of the file's one Exif item (after its 4-byte offset to the TIFF header, which we write as 0). */
function exifTiff(bytes: Uint8Array): Uint8Array {
  const [item, ...more] = itemsOfType(bytes, "Exif");
  assert.ok(item && more.length === 0, "one Exif item");
  assert.deepEqual([...item.subarray(0, 4)], [0, 0, 0, 0]);
  return item.subarray(4);
}

Deno.test("AVIF output carries the source's ICC profile byte for byte, and avifdec reports it", async () => {
  const result = await avif("icc-adobergb.jpg");
  const profile = await sourceIcc("icc-adobergb.jpg");
  assert.ok(profile.length > 500);
  assert.deepEqual(colourProperties(result.bytes, "prof"), [profile]);
  // The encoder's nclx property stays beside it (matrix and range for the YUV to RGB conversion).
  assert.equal(colourProperties(result.bytes, "nclx").length, 1);
  const info = await avifInfo(result.bytes);
  assert.match(info, new RegExp(`ICC Profile\\s*: Present \\(${profile.length} bytes\\)`));
  assert.match(info, /Exif Metadata\s*: Absent/);
  assert.deepEqual(result.metadata.kept, ["ICC profile"]);
  assert.deepEqual(result.metadata.removed, []);
});

Deno.test("stripMetadata off keeps EXIF (GPS included) with the orientation reset to 1; XMP, IPTC and comments go", async () => {
  const result = await avif("metadata-all.jpg", { stripMetadata: false });
  // Orientation 6 is applied to the pixels: the 128×96 stored image is upright 96×128.
  assert.deepEqual([result.width, result.height], [96, 128]);
  assert.deepEqual(result.metadata.kept, ["EXIF", "GPS", "ICC profile"]);
  assert.deepEqual(result.metadata.removed, ["XMP", "IPTC", "Comment"]);
  const exif = readExif(exifTiff(result.bytes));
  assert.equal(exif.orientation, 1);
  assert.ok(exif.orientationValueOffset !== null, "the tag is there, set to 1");
  assert.equal(exif.hasGps, true);
  const info = await avifInfo(result.bytes);
  assert.match(info, /Resolution\s*: 96x128/);
  assert.match(info, /Exif Metadata\s*: Present/);
  assert.match(info, /ICC Profile\s*: Present/);
  assert.match(info, /Transformations\s*: None/);
});

Deno.test("stripMetadata on keeps only the ICC profile", async () => {
  const result = await avif("metadata-all.jpg", { stripMetadata: true });
  assert.deepEqual(itemsOfType(result.bytes, "Exif"), []);
  assert.deepEqual(result.metadata.kept, ["ICC profile"]);
  assert.deepEqual(result.metadata.removed, ["EXIF", "GPS", "XMP", "IPTC", "Comment"]);
  const info = await avifInfo(result.bytes);
  assert.match(info, /Exif Metadata\s*: Absent/);
  assert.match(info, /ICC Profile\s*: Present/);
  // A source without metadata: the encoder's file, untouched.
  const bare = await avif("base.jpg", { stripMetadata: false });
  assert.deepEqual(bare.metadata.kept, []);
  assert.deepEqual(colourProperties(bare.bytes, "prof"), []);
});

Deno.test("the metadata moves the image data's offsets by what it inserts: the image decodes exactly as before", async () => {
  const width = 40, height = 24, data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([i % 251, (i * 7) % 253, (i * 13) % 255, 255], i);
  const bare = await encodeAvifPixels({ data, width, height }, { quality: 60, speed: 8, subsample: 1 });
  const icc = await sourceIcc("icc-adobergb.jpg");
  const exif = new Uint8Array([0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]); // an empty big-endian IFD0
  const expected = await decodeAvifPixels(bare);
  for (const metadata of [{ icc, exif: null }, { icc: null, exif }, { icc, exif }]) {
    const edited = addAvifMetadata(bare, metadata);
    assert.ok(edited.length > bare.length);
    assert.deepEqual((await decodeAvifPixels(edited)).data, expected.data);
    assert.deepEqual((await nativeDecode(edited)).data, (await nativeDecode(bare)).data);
    if (metadata.exif) assert.deepEqual(exifTiff(edited), exif);
  }
  assert.equal(addAvifMetadata(bare, { icc: null, exif: null }), bare);
});

Deno.test("a file with an alpha item (an iref box already there) gets the Exif reference added to it", async () => {
  const width = 32, height = 32, data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([200, 100, 50, (i / 4) % 256], i);
  const withAlpha = await encodeAvifPixels({ data, width, height }, { quality: 60, speed: 8, subsample: 1 });
  const exif = new Uint8Array([0x49, 0x49, 42, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // an empty little-endian IFD0
  const edited = addAvifMetadata(withAlpha, { icc: await sourceIcc("icc-adobergb.jpg"), exif });
  const info = await avifInfo(edited);
  assert.match(info, /Alpha\s*: Not premultiplied/);
  assert.match(info, /Exif Metadata\s*: Present \(14 bytes\)/);
  assert.match(info, /ICC Profile\s*: Present/);
  assert.deepEqual((await nativeDecode(edited)).data, (await nativeDecode(withAlpha)).data);
});

Deno.test("addAvifMetadata refuses what is not an AVIF rather than writing a broken file", async () => {
  const jpeg = await fixture("base.jpg");
  assert.throws(() => addAvifMetadata(jpeg, { icc: new Uint8Array(10), exif: null }));
});

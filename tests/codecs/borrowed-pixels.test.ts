/** Pixels left in the decoder's heap (jpeg/decode.ts `borrow`) against the copy every other caller gets. */
import assert from "node:assert/strict";
import { decodeJpegPixels } from "../../codecs/jpeg/decode.ts";
import { releasePixels } from "../../codecs/image/release.ts";
import { compressImage, scoreImage } from "../../codecs/pipeline/compress.ts";
import { fixture, settings } from "./helpers.ts";

Deno.test("a borrowed decode gives the copy's pixels, and releasing them leaves the decoder's heap alone", async () => {
  const bytes = await fixture("base.jpg");
  const copy = await decodeJpegPixels(bytes);
  const borrowed = await decodeJpegPixels(bytes, true);
  assert.notStrictEqual(borrowed.data.buffer, copy.data.buffer);
  // The heap holds more than the image: the pixels are a view into it, not a buffer of their own.
  assert(borrowed.data.buffer.byteLength > borrowed.data.byteLength);
  assert.deepEqual(borrowed.data, copy.data);
  releasePixels(borrowed); // a heap's buffer cannot be detached: this would throw
  assert.deepEqual(borrowed.data.length, copy.data.length);
  // The decoder still works after it (its heap was not taken from it).
  assert.deepEqual((await decodeJpegPixels(bytes)).data, copy.data);
  releasePixels(copy);
  assert((copy.data.buffer as ArrayBuffer).detached, "a copy is released at once");
});

Deno.test("a copy outlives the next decode; borrowed pixels are the decoder's to overwrite", async () => {
  // Same dimensions, other pixels (stored turned half a turn): the decoder writes where it wrote before.
  const [first, second] = [await fixture("orientation-1.jpg"), await fixture("orientation-3.jpg")];
  const kept = await decodeJpegPixels(first);
  const expected = kept.data.slice();
  const lent = await decodeJpegPixels(first, true);
  await decodeJpegPixels(second, true);
  assert.deepEqual(kept.data, expected);
  // The lent view now reads whatever the decoder wrote since (or nothing, had its heap grown).
  assert(lent.data.length === 0 || lent.data.some((v, i) => v !== expected[i]));
});

for (const name of ["base.jpg", "orientation-6.jpg"]) {
  Deno.test(`${name}: a deferred score, on the borrowed original, equals the score measured in the job`, async () => {
    const bytes = await fixture(name);
    const run = (deferScore: boolean) =>
      compressImage(new AbortController().signal, { bytes, settings: settings(), maxPixels: 1e8, deferScore });
    const measured = await run(false);
    const deferred = await run(true);
    assert.deepEqual(deferred.quality, null);
    assert.deepEqual(deferred.bytes, measured.bytes);
    const report = await scoreImage(new AbortController().signal, bytes, deferred.bytes);
    assert.deepEqual(report.ssimulacra2, measured.quality?.ssimulacra2);
    assert(report.ssimulacra2 > 60 && report.ssimulacra2 < 100);
  });
}

/**
 * Before a search's full-size encode, every other encoder's heap and the JPEG decoder's go back, the search's
 * or not; the encoding one's stays (pipeline/search-heaps.ts, ADR 040).
 */
import assert from "node:assert/strict";
import { collectGarbageSoon } from "../../codecs/collect-garbage.ts";
import { releaseCodecHeaps } from "../../codecs/codec-instance.ts";
import { decodeJpegPixels } from "../../codecs/jpeg/decode.ts";
import { releaseHeapsBeside, SEARCH_KEEP_HEAP_BYTES } from "../../codecs/pipeline/search-heaps.ts";
import { CODECS } from "../../codecs/registry.ts";
import { wasmHeapBytes } from "../../codecs/wasm.ts";
import { settings, smoothPhoto } from "./helpers.ts";

Deno.test("a full-size encode finds every other encoder's heap and the decoder's given back, its own kept", async () => {
  const { mozjpeg, jpegli, avif } = CODECS;
  const context = { grayscale: false, scoreGoal: true };
  // 4.3 MP: the decoder's heap (4.2 bytes per pixel) and each encoder's pass SEARCH_KEEP_HEAP_BYTES.
  const pixels = await decodeJpegPixels(await smoothPhoto(2400, 1800));
  const fromMozjpeg = await mozjpeg.encode(pixels, settings(), 80, context);
  await jpegli.encode(pixels, settings(), 80, context);
  // An earlier job's AVIF encoder heap (1 MP, speed 8), kept by the worker: no encoder of a JPEG search.
  const beforeAvif = wasmHeapBytes();
  const small = await decodeJpegPixels(await smoothPhoto(1200, 800));
  await avif.encode(small, settings({ format: "avif", mode: "speed" }), 60, context);
  const avifHeap = wasmHeapBytes() - beforeAvif;
  assert.ok(avifHeap > SEARCH_KEEP_HEAP_BYTES, `AVIF's heap ${avifHeap}`);
  const held = wasmHeapBytes();

  assert.equal(releaseHeapsBeside(jpegli), true);
  const besideJpegli = wasmHeapBytes();
  // MozJPEG's encoder holds about 16.7 bytes per pixel here, the decoder 4.7, and AVIF's: all, not one.
  assert.ok(held - besideJpegli > 20 * 2400 * 1800 + avifHeap, `gave back ${held - besideJpegli} bytes`);
  assert.ok(besideJpegli - SEARCH_KEEP_HEAP_BYTES > 0, "jpegli's heap is still held");
  assert.equal(releaseHeapsBeside(jpegli), false, "nothing else is idle beside jpegli");

  assert.equal(releaseHeapsBeside(mozjpeg), true, "jpegli's turn is over when MozJPEG's comes");
  assert.ok(wasmHeapBytes() < besideJpegli);
  await collectGarbageSoon();
  // The next encode makes a new instance, and the same file.
  assert.deepEqual(await mozjpeg.encode(pixels, settings(), 80, context), fromMozjpeg);
  assert.equal(releaseHeapsBeside(mozjpeg), false, "its own heap is not given back");
  releaseCodecHeaps(0);
  await collectGarbageSoon();
});

/**
 * AVIF output (@jsquash/avif 2.1.1: libavif + libaom; measured through icodec's libavif decoder) through the
 * pipeline and the pool, checked from outside: Debian's avifdec decodes it natively and describes it, and that
 * decode is scored against the original. Metadata has its own file (avif-metadata.test.ts).
 */
import assert from "node:assert/strict";
import { AVIF_MAX_SIDE } from "../../codecs/avif/codec.ts";
import { encodeAvifPixels } from "../../codecs/avif/encode.ts";
import { CodecError, createCodecPool, inspectJpeg, sniffFormat } from "../../codecs/mod.ts";
import { encodeJpegPixels } from "../../codecs/jpeg/encode.ts";
import { mozJpegOptions } from "../../codecs/jpeg/options.ts";
import { compressImage, decodeUpright } from "../../codecs/pipeline/compress.ts";
import { measureDecoded } from "../../codecs/pipeline/measure.ts";
import { measurePlanes } from "../../codecs/quality/planes.ts";
import { outputCodec } from "../../codecs/registry.ts";
import { wasmHeapBytes } from "../../codecs/wasm.ts";
import { releaseCodecHeaps } from "../../codecs/codec-instance.ts";
import type { CompressSettings } from "../../contract/settings.ts";
import { avifInfo, nativeDecode } from "./avif-helpers.ts";
import { fixture, settings } from "./helpers.ts";

const avif = async (name: string, overrides: Partial<CompressSettings> = {}) =>
  compressImage(new AbortController().signal, {
    bytes: await fixture(name),
    settings: settings({ format: "avif", ...overrides }),
    maxPixels: 50e6,
  });

/** SSIMULACRA 2 of avifdec's decode of `output` against the upright original. */
async function nativeScore(name: string, output: Uint8Array): Promise<number> {
  const bytes = await fixture(name);
  const planes = measurePlanes(await decodeUpright(bytes, inspectJpeg(bytes)));
  try {
    return measureDecoded(await nativeDecode(output), planes).ssimulacra2;
  } finally {
    planes.pyramid.free();
  }
}

Deno.test("AVIF output is an AVIF that avifdec decodes, scoring what the job reports and in its range", async () => {
  // Measured at speed 7: q60 scores 70-71, q80 83-85 on these photo-like fixtures.
  for (const [name, quality, low, high] of [["base.jpg", 60, 66, 75], ["base.jpg", 80, 80, 89]] as const) {
    const result = await avif(name, { quality });
    assert.equal(result.mimeType, "image/avif");
    assert.equal(result.extension, "avif");
    assert.equal(result.encoder, "avif");
    assert.equal(sniffFormat(result.bytes), "avif");
    assert.equal(outputCodec(sniffFormat(result.bytes))?.id, "avif", "a stored result finds its decoder");
    const native = await nativeScore(name, result.bytes);
    assert.ok(native >= low && native <= high, `${name} q${quality}: avifdec's decode scores ${native}`);
    // Our WASM decoder (icodec's libavif) gives Debian's pixels (libavif with dav1d and libyuv), so its score.
    assert.equal(result.quality.ssimulacra2, native);
  }
});

Deno.test("our AVIF decoder gives avifdec's pixels to the byte: 4:2:0, 4:4:4 and grey", async () => {
  for (
    const [name, chromaSubsampling] of [["base.jpg", "4:2:0"], ["base.jpg", "4:4:4"], [
      "grayscale.jpg",
      "4:2:0",
    ]] as const
  ) {
    const { bytes } = await avif(name, { quality: 70, chromaSubsampling });
    const [ours, native] = [await outputCodec("avif")!.decode(bytes), await nativeDecode(bytes)];
    assert.equal(ours.width, native.width);
    assert.equal(ours.height, native.height);
    assert.deepEqual(ours.data, native.data, `${name} ${chromaSubsampling}`);
  }
});

Deno.test("chroma 4:4:4 and 4:2:0 make different files; 4:2:2 is written as 4:2:0; grey sources are 4:0:0", async () => {
  const full = await avif("base.jpg", { quality: 60, chromaSubsampling: "4:4:4" });
  const quarter = await avif("base.jpg", { quality: 60, chromaSubsampling: "4:2:0" });
  const half = await avif("base.jpg", { quality: 60, chromaSubsampling: "4:2:2" });
  assert.notDeepEqual(full.bytes, quarter.bytes);
  assert.ok(full.compressedSize > quarter.compressedSize, "full chroma costs bytes");
  assert.match(await avifInfo(full.bytes), /Format\s*: YUV444/);
  assert.match(await avifInfo(quarter.bytes), /Format\s*: YUV420/);
  assert.deepEqual(half.bytes, quarter.bytes);
  const grey = await avif("grayscale.jpg", { quality: 60, chromaSubsampling: "4:4:4" });
  assert.match(await avifInfo(grey.bytes), /Format\s*: YUV400/);
});

Deno.test("quality raises AVIF's size and score step by step; mode sets the encoder's speed", async () => {
  const runs = [];
  for (const quality of [20, 40, 60, 80, 95]) runs.push(await avif("base.jpg", { quality }));
  for (let i = 1; i < runs.length; i++) {
    assert.ok(runs[i]!.compressedSize > runs[i - 1]!.compressedSize, `size at step ${i}`);
    assert.ok(runs[i]!.quality.ssimulacra2 > runs[i - 1]!.quality.ssimulacra2, `score at step ${i}`);
  }
  const fast = await avif("metadata-all.jpg", { quality: 60, mode: "speed" });
  const slow = await avif("metadata-all.jpg", { quality: 60, mode: "quality" });
  assert.notDeepEqual(fast.bytes, slow.bytes);
});

Deno.test("auto on AVIF lands at SSIMULACRA 2 80-83, by our measure and by avifdec's decode", async () => {
  for (const name of ["base.jpg", "metadata-all.jpg", "progressive.jpg", "grayscale.jpg"]) {
    const result = await avif(name, { target: { kind: "auto" } });
    assert.equal(result.keptOriginal, false, name);
    assert.equal(result.encoder, "avif");
    const score = result.quality.ssimulacra2;
    assert.ok(score >= 80 && score <= 83, `${name}: ${score} at q${result.chosenQuality}`);
    const native = await nativeScore(name, result.bytes);
    assert.ok(native >= 79.75 && native <= 83.5, `${name}: avifdec's decode scores ${native}`);
  }
});

Deno.test("a score and a size target search AVIF's quality too", async () => {
  const byScore = await avif("base.jpg", { target: { kind: "quality", score: 88 } });
  assert.ok(byScore.quality.ssimulacra2 >= 88, String(byScore.quality.ssimulacra2));
  const bySize = await avif("base.jpg", { target: { kind: "size", kb: 2 } });
  assert.ok(bySize.compressedSize <= 2048, String(bySize.compressedSize));
  assert.equal(bySize.mimeType, "image/avif");
});

Deno.test("an AVIF trap fails its encode with a CodecError, counts in the heaps, and the next encode works", async () => {
  const small = { data: new Uint8ClampedArray(32 * 32 * 4).fill(90), width: 32, height: 32 };
  const options = { quality: 50, speed: 8, subsample: 1 } as const;
  await encodeAvifPixels(small, options);
  const before = wasmHeapBytes();
  // 40,000² asks libavif for 2.4 GB of planes: the allocation fails inside the module, which aborts (a trap).
  await assert.rejects(encodeAvifPixels({ ...small, width: 40_000, height: 40_000 }, options), (error) => {
    assert.ok(error instanceof CodecError);
    assert.equal(error.code, "corrupt_image");
    assert.match(error.message, /^Cannot encode the image as AVIF: /);
    return true;
  });
  assert.ok(wasmHeapBytes() > before, "the heap the failed encode grew is counted until a fresh instance replaces it");
  const after = await encodeAvifPixels(small, options);
  assert.equal(sniffFormat(after), "avif");
  assert.ok(wasmHeapBytes() < 256 * 2 ** 20, "a fresh instance replaced the grown one");
});

Deno.test("an AVIF encoder's heap counts in what the worker reports (its recycling threshold)", async () => {
  releaseCodecHeaps(0);
  const before = wasmHeapBytes();
  const small = { data: new Uint8ClampedArray(64 * 64 * 4).fill(120), width: 64, height: 64 };
  await encodeAvifPixels(small, { quality: 60, speed: 8, subsample: 1 });
  // Measured: the encoder's heap starts at 16 MiB.
  assert.ok(wasmHeapBytes() - before >= 16 * 2 ** 20, String(wasmHeapBytes() - before));
});

/** A JPEG wider than an AVIF may be: libaom would encode it, libavif's decoders would refuse it. */
function tooWideJpeg(): Promise<Uint8Array> {
  const width = AVIF_MAX_SIDE + 232, height = 16;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([(i >> 4) % 256, 120, 60, 255], i);
  return encodeJpegPixels({ data, width, height }, mozJpegOptions(settings(), 80, false));
}

Deno.test("in the pool an AVIF failure fails its job only: the next AVIF job on the same worker succeeds", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 60_000, maxQueue: 10 });
  try {
    await assert.rejects(pool.compress(await tooWideJpeg(), settings({ format: "avif" })), (error) => {
      assert.ok(error instanceof CodecError);
      assert.equal(error.code, "unsupported_format");
      assert.match(error.message, /^AVIF holds at most 32,768 px a side; this image is 33000×16/);
      return true;
    });
    const next = await pool.compress(await fixture("base.jpg"), settings({ format: "avif", quality: 60 }));
    assert.equal(next.mimeType, "image/avif");
    assert.equal(pool.stats().replaced, 0, "a refusal before the encoder keeps the worker");
    // The same photo as JPEG is fine: the limit is AVIF's.
    assert.equal((await pool.compress(await tooWideJpeg(), settings({ quality: 60 }))).width, 33000);
  } finally {
    await pool.close();
  }
});

Deno.test("a deferred AVIF score is the score the same job measures in one call", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 60_000, maxQueue: 10 });
  try {
    const original = await fixture("orientation-6.jpg");
    const s = settings({ format: "avif", quality: 40 });
    const inline = await pool.compress(original.slice(), s);
    const deferred = await pool.compress(original.slice(), s, { deferScore: true });
    assert.equal(deferred.quality, null);
    assert.deepEqual(deferred.bytes, inline.bytes);
    assert.deepEqual(await pool.score(original.slice(), deferred.bytes), inline.quality);
  } finally {
    await pool.close();
  }
});

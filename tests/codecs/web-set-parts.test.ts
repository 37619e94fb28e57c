/** A web set split over the pool's workers when it runs alone (ADR 038): the widths dealt, the parts joined. */
import assert from "node:assert/strict";
import { CodecError, createCodecPool } from "../../codecs/mod.ts";
import { compressSet, joinSetParts, newSetPart, setUnits, takeUnits } from "../../codecs/pipeline/web-set.ts";
import { DEFAULT_SET_WIDTHS } from "../../contract/web-sets.ts";
import type { CompressSettings } from "../../contract/settings.ts";
import { fixture, settings, smoothPhoto } from "./helpers.ts";

Deno.test("the parts take the set's units from one counter, widest first: a width's AVIF and its JPEG apart", () => {
  const units = setUnits([...DEFAULT_SET_WIDTHS], ["jpeg", "jxl", "avif"]);
  // Within a width the slow format alone first, then JPEG with the JPEG XL that holds its encode.
  assert.deepEqual(units.slice(0, 3), [
    { width: 2560, formats: ["avif"] },
    { width: 2560, formats: ["jpeg", "jxl"] },
    { width: 1920, formats: ["avif"] },
  ]);
  assert.equal(units.length, 8);
  const part = newSetPart(2);
  const [a, b] = [takeUnits(units, part), takeUnits(units, part)];
  // Whoever asks next gets the next one: a part done early takes more.
  const taken = [a.next(), b.next(), b.next(), b.next(), a.next()].map((u) => `${u!.width} ${u!.formats}`);
  assert.deepEqual(taken, ["2560 avif", "2560 jpeg,jxl", "1920 avif", "1920 jpeg,jxl", "1280 avif"]);
  for (let i = 0; i < 3; i++) assert.ok(a.next());
  assert.equal(b.next(), null, "every unit once");
  assert.equal(a.expected, 4, "progress counts an even share");
  // Without a part: every unit.
  const alone = takeUnits(setUnits([100, 300], ["jpeg"]));
  assert.deepEqual([alone.next()?.width, alone.next()?.width, alone.next()], [300, 100, null]);
});

Deno.test("a part that finds no width left decodes nothing, and the joined set is the other part's", async () => {
  const part = newSetPart(2);
  const input = { bytes: await fixture("base.jpg"), settings: setSettings([64, 32]), maxPixels: 50e6, part };
  const signal = new AbortController().signal;
  // One after the other: the first part takes both widths.
  const first = await compressSet(signal, input);
  const second = await compressSet(signal, input);
  assert.deepEqual(second.set, []);
  assert.equal(second.timings.decodeMs, 0, "nothing decoded");
  const joined = joinSetParts([second, first], input.settings.formats);
  assert.deepEqual(joined.set!.map((f) => [f.width, f.format]), [[64, "avif"], [64, "jpeg"], [32, "avif"], [
    32,
    "jpeg",
  ]]);
  assert.equal(joined.width, 64, "the widest part's size, whichever finished first");
  assert.deepEqual(joined.thumbnail, first.thumbnail);
});

const setSettings = (widths: number[]): CompressSettings =>
  settings({ widths, formats: ["avif", "jpeg"], target: { kind: "auto" } });

Deno.test("a set given two lanes runs on both workers and comes back whole, each file scored against its width", async () => {
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 120_000, maxQueue: 4 });
  try {
    const photo = await smoothPhoto(480, 320);
    const split = pool.compress(photo.slice(), setSettings([400, 240, 120]), { lanes: 2 });
    assert.equal(pool.stats().busy, 2, "both workers took a part");
    const [whole, one] = [await split, await pool.compress(photo.slice(), setSettings([400, 240, 120]), { lanes: 1 })];
    const files = (r: typeof whole) => r.set!.map((f) => [f.width, f.format]);
    assert.deepEqual(files(whole), [[400, "avif"], [400, "jpeg"], [240, "avif"], [240, "jpeg"], [120, "avif"], [
      120,
      "jpeg",
    ]]);
    assert.deepEqual(files(whole), files(one), "the same files as on one worker");
    for (const f of whole.set!) assert.ok(f.score >= 80 && f.score <= 90, `${f.width} ${f.format}: ${f.score}`);
    assert.equal(whole.quality!.ssimulacra2, Math.min(...whole.set!.map((f) => f.score)), "the weakest file's score");
    assert.equal(whole.compressedSize, whole.set!.reduce((n, f) => n + f.bytes.length, 0));
    assert.deepEqual([whole.width, whole.height], [400, 267], "the widest file's size");
    assert.ok(whole.thumbnail.length > 0);
  } finally {
    await pool.close();
  }
});

Deno.test("a photo narrower than all but one width: that width's files come back whole", async () => {
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 120_000, maxQueue: 4 });
  try {
    const result = await pool.compress(await fixture("base.jpg"), setSettings([64, 640, 1280]), { lanes: 2 });
    assert.deepEqual(result.set!.map((f) => [f.width, f.format]), [[64, "avif"], [64, "jpeg"]]);
  } finally {
    await pool.close();
  }
});

Deno.test("a split set that cannot be decoded fails once, and the pool serves the next job", async () => {
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 120_000, maxQueue: 4 });
  try {
    await assert.rejects(
      pool.compress(await fixture("corrupt-scan.jpg"), setSettings([32, 16]), { lanes: 2 }),
      (error) => error instanceof CodecError && error.code === "corrupt_image",
    );
    const next = await pool.compress(await fixture("base.jpg"), setSettings([64, 32]), { lanes: 2 });
    assert.equal(next.set!.length, 4);
  } finally {
    await pool.close();
  }
});

Deno.test("cancelling a split set stops both parts at once", async () => {
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 120_000, maxQueue: 4 });
  try {
    const controller = new AbortController();
    const job = pool.compress(await smoothPhoto(480, 320), setSettings([400, 200]), {
      lanes: 2,
      signal: controller.signal,
    });
    assert.equal(pool.stats().busy, 2);
    controller.abort();
    await assert.rejects(job, (error) => error instanceof CodecError && error.code === "aborted");
    assert.equal(pool.stats().busy, 0, "both workers freed");
  } finally {
    await pool.close();
  }
});

import assert from "node:assert/strict";
import { IDLE_WORKER_BYTES, memoryBudgetBytes } from "../../server/services/compression/memory-budget.ts";
import { encodedFormats, estimateJobMemory } from "../../codecs/mod.ts";

const MiB = 1024 * 1024;

Deno.test("the memory budget is the store's cap less each worker's idle heaps: 780 MiB at the defaults", () => {
  assert.equal(memoryBudgetBytes(1024 * MiB, 2), 780 * MiB);
  // More workers keep more idle heap; a larger cap leaves more room for images in work.
  assert.equal(memoryBudgetBytes(1024 * MiB, 4), 1024 * MiB - 4 * IDLE_WORKER_BYTES);
  assert.equal(memoryBudgetBytes(2048 * MiB, 2) - memoryBudgetBytes(1024 * MiB, 2), 1024 * MiB);
  assert.equal(memoryBudgetBytes(100 * MiB, 8), 0, "never negative: a lone job still runs");
});

Deno.test("a job's reservation follows its bytes and the formats it encodes in (AVIF's encoder holds more per pixel)", () => {
  const mp12 = 12e6;
  const jpeg = estimateJobMemory(mp12, 5e6);
  assert.equal(jpeg, 32 * 1024 * 1024 + 40 * mp12 + 5 * 5e6);
  assert.ok(estimateJobMemory(mp12, 6e6) > jpeg, "more bytes, more memory");
  assert.equal(estimateJobMemory(mp12, 5e6, ["webp"]), jpeg);
  assert.equal(
    estimateJobMemory(mp12, 5e6, ["jxl"]),
    jpeg,
    "JPEG XL transcodes once the JPEG path gave its heaps back",
  );
  const avif = estimateJobMemory(mp12, 5e6, ["avif"]);
  assert.ok(avif > jpeg * 1.15, `${avif} against ${jpeg}`);
  assert.equal(estimateJobMemory(mp12, 5e6, ["jpeg", "avif"]), avif, "a set reserves for its heaviest format");
  assert.deepEqual(encodedFormats({ format: "jpeg", widths: [640], formats: ["avif", "jpeg"] }), ["avif", "jpeg"]);
  assert.deepEqual(encodedFormats({ format: "webp", widths: null, formats: ["avif", "jpeg"] }), ["webp"]);
});

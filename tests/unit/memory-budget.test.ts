import assert from "node:assert/strict";
import type { FormatChoice, OutputFormat } from "../../contract/formats.ts";
import type { ChromaSubsampling, Encoder } from "../../contract/settings.ts";
import { IDLE_WORKER_BYTES, memoryBudgetBytes } from "../../server/services/compression/memory-budget.ts";
import { encodedFormats, estimateJobMemory, jobBytesPerPixel, SCORE_BYTES_PER_PIXEL } from "../../codecs/mod.ts";

const MiB = 1024 * 1024;

Deno.test("the memory budget is the store's cap less each worker's idle heaps: 780 MiB at the defaults", () => {
  assert.equal(memoryBudgetBytes(1024 * MiB, 2), 780 * MiB);
  // More workers keep more idle heap; a larger cap leaves more room for images in work.
  assert.equal(memoryBudgetBytes(1024 * MiB, 4), 1024 * MiB - 4 * IDLE_WORKER_BYTES);
  assert.equal(memoryBudgetBytes(2048 * MiB, 2) - memoryBudgetBytes(1024 * MiB, 2), 1024 * MiB);
  assert.equal(memoryBudgetBytes(100 * MiB, 8), 0, "never negative: a lone job still runs");
});

Deno.test("a job's reservation follows its bytes, whether it measures, and the formats it encodes in", () => {
  const mp12 = 12e6;
  const fixed = {
    format: "jpeg" as FormatChoice,
    widths: null as number[] | null,
    formats: [] as OutputFormat[],
    target: null,
    encoder: "mozjpeg" as Encoder,
    chromaSubsampling: "4:2:0" as ChromaSubsampling,
  };
  const auto = { ...fixed, target: { kind: "auto" } };
  const perPixel = jobBytesPerPixel(auto);
  assert.equal(estimateJobMemory(mp12, 5e6, perPixel), 32 * MiB + perPixel * mp12 + 5 * 5e6);
  assert.equal(estimateJobMemory(mp12, 5e6), estimateJobMemory(mp12, 5e6, perPixel), "a JPEG on auto by default");
  assert.ok(estimateJobMemory(mp12, 6e6, perPixel) > estimateJobMemory(mp12, 5e6, perPixel), "more bytes, more");
  // The fixed path only decodes and encodes: its score is measured later, as a task of its own.
  assert.ok(jobBytesPerPixel(fixed) < perPixel * 0.75, `fixed ${jobBytesPerPixel(fixed)} against auto ${perPixel}`);
  assert.ok(SCORE_BYTES_PER_PIXEL > jobBytesPerPixel(fixed), "a score decodes two images and holds the metric's");
  // On the fixed path MozJPEG's full-chroma planes hold half as much again as halved ones, jpegli's a fraction.
  const fullChroma = jobBytesPerPixel({ ...fixed, chromaSubsampling: "4:4:4" });
  assert.ok(fullChroma > jobBytesPerPixel(fixed) && fullChroma < perPixel, `4:4:4 fixed ${fullChroma}`);
  assert.equal(jobBytesPerPixel({ ...fixed, chromaSubsampling: "4:2:2" }), fullChroma, "4:2:2 is encoded at 4:4:4");
  const jpegli = jobBytesPerPixel({ ...fixed, encoder: "jpegli", chromaSubsampling: "4:4:4" });
  assert.ok(jpegli < jobBytesPerPixel(fixed), `jpegli fixed ${jpegli}`);
  assert.equal(
    jobBytesPerPixel({ ...auto, encoder: "jpegli", chromaSubsampling: "4:4:4" }),
    perPixel,
    "a goal measures",
  );
  assert.equal(
    jobBytesPerPixel({ ...fixed, format: "webp", chromaSubsampling: "4:4:4" }),
    jobBytesPerPixel({ ...fixed, format: "webp" }),
    "WebP's by format alone",
  );
  assert.equal(jobBytesPerPixel({ ...auto, format: "jxl" }), perPixel, "JPEG XL transcodes after the JPEG path");
  // AVIF's encoder holds the most, with or without a goal; a set reserves for its heaviest format.
  const avif = jobBytesPerPixel({ ...fixed, format: "avif" });
  assert.ok(avif > perPixel && avif === jobBytesPerPixel({ ...auto, format: "avif" }));
  assert.equal(jobBytesPerPixel({ ...fixed, widths: [640, 1280], formats: ["jpeg", "avif"] }), avif);
  assert.equal(jobBytesPerPixel({ ...fixed, widths: [640], formats: ["jpeg"] }), perPixel, "a set measures");
  assert.equal(jobBytesPerPixel({ ...auto, format: "auto", formats: ["jpeg", "avif"] }), avif, "auto: its candidates");
  assert.deepEqual(encodedFormats({ format: "jpeg", widths: [640], formats: ["avif", "jpeg"] }), ["avif", "jpeg"]);
  assert.deepEqual(encodedFormats({ format: "webp", widths: null, formats: ["avif", "jpeg"] }), ["webp"]);
});

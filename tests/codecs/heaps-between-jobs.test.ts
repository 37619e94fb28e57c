/**
 * A codec worker keeps its large heaps from one fixed-path job to an alike next one (same settings, at least
 * KEEP_FROM_SHARE of the pixels that grew them), and gives them back before any other job or once idle
 * (pool/heaps-between-jobs.ts).
 */
import assert from "node:assert/strict";
import {
  afterJob,
  beforeJob,
  IDLE_RELEASE_MS,
  KEEP_FROM_SHARE,
  keepKind,
} from "../../codecs/pool/heaps-between-jobs.ts";
import { trackHeap, wasmHeapBytes } from "../../codecs/wasm.ts";
import { DEFAULT_SETTINGS } from "../../contract/settings.ts";
import { grower, PAGE } from "./grower.ts";

/** Past the 48 MiB a worker keeps when idle (idle-heaps.ts). */
const LARGE_PAGES = 800;
const FIXED = keepKind(DEFAULT_SETTINGS, true)!;

async function jobGrowingHeap(kind: string | null, pixels: number) {
  await beforeJob(kind, pixels);
  const { instance } = grower(Infinity);
  await instance.run((api) => api.grow(LARGE_PAGES));
  return afterJob();
}

Deno.test("only the fixed path's one-step jobs may keep heaps, keyed by their settings", () => {
  assert.equal(typeof FIXED, "string");
  assert.notEqual(keepKind({ ...DEFAULT_SETTINGS, quality: 70 }, true), FIXED, "other settings, another kind");
  assert.equal(keepKind(DEFAULT_SETTINGS, false), null, "a score measured during the job");
  assert.equal(keepKind({ ...DEFAULT_SETTINGS, target: { kind: "auto" } }, true), null, "a score goal");
  assert.equal(keepKind({ ...DEFAULT_SETTINGS, widths: [640, 1280] }, true), null, "a web set");
  assert.equal(keepKind({ ...DEFAULT_SETTINGS, format: "jxl" }, true), null, "JPEG XL's two steps");
});

Deno.test("an alike job finds the last job's heaps; a much smaller one, another kind or an unknown size does not", async () => {
  const base = wasmHeapBytes();
  const heldWhenIdle = await jobGrowingHeap(FIXED, 1000);
  assert.equal(wasmHeapBytes() - base, (LARGE_PAGES + 1) * PAGE, "held after the job");
  assert.equal(heldWhenIdle, base, "the large heap is not what the worker holds once idle");

  await beforeJob(FIXED, 1000 * KEEP_FROM_SHARE);
  assert.equal(wasmHeapBytes() - base, (LARGE_PAGES + 1) * PAGE, "an alike job keeps it");
  afterJob();
  await beforeJob(FIXED, 1000 * KEEP_FROM_SHARE - 1);
  assert.equal(wasmHeapBytes(), base, "a job under the share of the largest image has it given back");
  afterJob();

  for (const [kind, pixels] of [["other", 1000], [null, 1000], [FIXED, 0]] as const) {
    await jobGrowingHeap(FIXED, 1000);
    await beforeJob(kind, pixels);
    assert.equal(wasmHeapBytes(), base, `given back before ${kind} on ${pixels} pixels`);
    afterJob();
  }
  await beforeJob(null, 0);
});

Deno.test("a worker idle for IDLE_RELEASE_MS gives its large heaps back", async () => {
  const base = wasmHeapBytes();
  await jobGrowingHeap(FIXED, 1000);
  await new Promise((resolve) => setTimeout(resolve, IDLE_RELEASE_MS / 2));
  assert.equal(wasmHeapBytes() - base, (LARGE_PAGES + 1) * PAGE, "still held for a next job");
  await new Promise((resolve) => setTimeout(resolve, IDLE_RELEASE_MS / 2 + 200));
  assert.equal(wasmHeapBytes(), base, "given back once idle");
  await beforeJob(FIXED, 1000);
  afterJob();
  await beforeJob(null, 0);
});

Deno.test("what a worker reports holding once idle counts a large heap only recycling frees (libjxl's)", async () => {
  const base = wasmHeapBytes();
  // Tracked like libjxl's memory: no codec instance owns it, so nothing between jobs gives it back.
  const module = await WebAssembly.compile(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  trackHeap(module, new WebAssembly.Memory({ initial: LARGE_PAGES }));
  try {
    assert.equal(await jobGrowingHeap(null, 1000), base + LARGE_PAGES * PAGE, "the codec's heap left out, libjxl's in");
    await beforeJob(null, 0);
    assert.equal(wasmHeapBytes(), base + LARGE_PAGES * PAGE);
  } finally {
    trackHeap(module, new WebAssembly.Memory({ initial: 0 }));
    afterJob();
    await beforeJob(null, 0);
  }
});

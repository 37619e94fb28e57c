/**
 * What a codec worker gives back between jobs (ADR 053): a heap dropped while the job still held a view of it
 * (the JPEG decoder's, whose pixels a job borrows: ADR 049) outlives the collection that followed the drop, so
 * the worker collects again once idle; WebP's heaps are codec instances like the others'.
 */
import assert from "node:assert/strict";
import { giveBackHeapsWhenIdle } from "../../codecs/idle-heaps.ts";
import { fullCollection, setGarbageCollector } from "../../codecs/collect-garbage.ts";
import { grower, PAGE } from "./grower.ts";
import { encodeWebpPixels, WEBP_KEEP_HEAP_BYTES } from "../../codecs/webp/encode.ts";
import { decodeWebpPixels } from "../../codecs/webp/decode.ts";
import { defaults } from "../../codecs/webp/meta.ts";
import { wasmHeapBytes } from "../../codecs/wasm.ts";

const MB = 2 ** 20;
const PAGES = 1024; // 64 MiB
const rss = () => Deno.memoryUsage().rss;

async function rssSettled(below: number): Promise<number> {
  // V8 frees a collected WASM memory's pages from a sweeper task: give it a moment.
  for (let i = 0; i < 20 && rss() >= below; i++) await new Promise((r) => setTimeout(r, 50));
  return rss();
}

/** Makes the heap resident and returns a small view of it: all that keeps it once the instance is dropped. */
function touchAndView(made: WebAssembly.Instance): Uint8Array {
  const { buffer } = made.exports.memory as WebAssembly.Memory;
  new Uint8Array(buffer).fill(1);
  return new Uint8Array(buffer, PAGES * PAGE, 16);
}

Deno.test("a heap dropped while a view of it was held is collected once the worker is idle", async () => {
  const collect = fullCollection();
  if (!collect) throw new Error("V8's gc is not available here");
  setGarbageCollector(collect);
  try {
    const { instance, made } = grower(Infinity);
    await instance.run((api) => api.grow(PAGES));
    let view: Uint8Array | null = touchAndView(made.pop()!);
    const held = rss();

    await instance.releaseNow();
    const whileViewed = await rssSettled(held - 32 * MB);
    assert.ok(held - whileViewed < 32 * MB, `dropped while viewed, ${(held - whileViewed) / MB} MB went`);

    assert.equal(view.length, 16);
    view = null;
    await giveBackHeapsWhenIdle();
    const idle = await rssSettled(held - 48 * MB);
    assert.ok(held - idle > 48 * MB, `once idle ${(held - idle) / MB} MB of 64 went back`);
  } finally {
    setGarbageCollector(() => {});
  }
});

Deno.test("WebP's encoder and decoder give back a heap a large image grew; a small one's stays for the next call", async () => {
  const image = (side: number) => ({
    data: new Uint8ClampedArray(side * side * 4).fill(128),
    width: side,
    height: side,
  });
  const base = wasmHeapBytes();
  const small = await encodeWebpPixels(image(256), defaults);
  await decodeWebpPixels(small);
  const heldSmall = wasmHeapBytes() - base;
  assert.ok(heldSmall > 0 && heldSmall < WEBP_KEEP_HEAP_BYTES, `kept ${heldSmall / MB} MB after a small image`);
  // 3,000 × 3,000: the encoder's heap grows past 64 MiB, the decoder's too (36 MB of pixels, then its copy out).
  const large = await encodeWebpPixels(image(3000), defaults);
  assert.ok(wasmHeapBytes() - base <= heldSmall, "the encoder's grown heap is not held after the call");
  const decoded = await decodeWebpPixels(large);
  assert.equal(decoded.width, 3000);
  assert.ok(wasmHeapBytes() - base < WEBP_KEEP_HEAP_BYTES, "nor the decoder's");
});

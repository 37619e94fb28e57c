/**
 * A codec instance is reused while its heap is small and dropped, uncounted and collected after a call that
 * grew it past its limit (codecs/codec-instance.ts), on a minimal WASM module whose one function grows its
 * memory.
 */
import assert from "node:assert/strict";
import { releaseCodecHeaps } from "../../codecs/codec-instance.ts";
import { setGarbageCollector } from "../../codecs/collect-garbage.ts";
import { wasmHeapBytes } from "../../codecs/wasm.ts";
import { grower, PAGE } from "./grower.ts";

Deno.test("a codec instance is kept while its heap is small, and dropped and collected once it is large", async () => {
  let collections = 0;
  setGarbageCollector(() => collections++);
  try {
    const { instance, made } = grower(4 * PAGE);
    const base = wasmHeapBytes();
    await instance.run((api) => api.grow(1));
    await instance.run((api) => api.grow(1));
    assert.equal(made.length, 1, "a small heap keeps its instance");
    assert.equal(wasmHeapBytes() - base, 3 * PAGE);
    assert.equal(collections, 0);

    assert.equal(await instance.run((api) => api.grow(8)), 3, "the call's result comes back");
    assert.equal(collections, 1, "a heap over the limit is collected at once");
    assert.equal(wasmHeapBytes(), base, "and no longer counted");

    await instance.run((api) => api.grow(0));
    assert.equal(made.length, 2, "the next call has a fresh instance");
    assert.equal(wasmHeapBytes() - base, PAGE);
  } finally {
    setGarbageCollector(() => {});
  }
});

Deno.test("a codec instance whose call throws is replaced, its heap counted until then", async () => {
  let collections = 0;
  setGarbageCollector(() => collections++);
  try {
    const { instance, made } = grower(64 * PAGE);
    const base = wasmHeapBytes();
    await assert.rejects(
      instance.run((api) => {
        api.grow(2);
        throw new Error("trap");
      }),
      /trap/,
    );
    assert.equal(wasmHeapBytes() - base, 3 * PAGE, "the failed instance's heap still counts");
    await instance.run((api) => api.grow(0));
    assert.equal(made.length, 2);
    assert.equal(wasmHeapBytes() - base, PAGE, "the fresh instance replaced it");
    assert.equal(collections, 0);
  } finally {
    setGarbageCollector(() => {});
  }
});

Deno.test("between jobs, every codec instance over the idle limit is dropped and the small ones kept", async () => {
  const big = grower(Infinity), small = grower(Infinity);
  const base = wasmHeapBytes();
  await big.instance.run((api) => api.grow(7));
  await small.instance.run((api) => api.grow(0));
  assert.equal(wasmHeapBytes() - base, 9 * PAGE);
  assert.equal(releaseCodecHeaps(4 * PAGE), true);
  assert.equal(wasmHeapBytes() - base, PAGE, "only the small heap still counts");
  assert.equal(releaseCodecHeaps(4 * PAGE), false, "nothing more to give back");
  await big.instance.run((api) => api.grow(0));
  await small.instance.run((api) => api.grow(0));
  assert.deepEqual([big.made.length, small.made.length], [2, 1]);
});

Deno.test("releaseNow drops an instance whatever its heap and collects it", async () => {
  let collections = 0;
  setGarbageCollector(() => collections++);
  try {
    const { instance, made } = grower(Infinity);
    const base = wasmHeapBytes();
    await instance.run((api) => api.grow(0));
    await instance.releaseNow();
    assert.equal(collections, 1);
    assert.equal(wasmHeapBytes(), base);
    await instance.releaseNow();
    assert.equal(collections, 1, "nothing to release twice");
    await instance.run((api) => api.grow(0));
    assert.equal(made.length, 2);
  } finally {
    setGarbageCollector(() => {});
  }
});

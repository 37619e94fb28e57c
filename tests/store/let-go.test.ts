import assert from "node:assert/strict";
import { MemoryStore } from "../../server/store/mod.ts";
import { LetGoCollector } from "../../server/store/let-go.ts";
import { inFreshProcess } from "../setup/in-fresh-process.ts";

const MB = 2 ** 20;
const bytes = (size: number, fill: number) => new Uint8Array(size).fill(fill);
const put = (store: MemoryStore, key: string, data: Uint8Array) =>
  store.put(key, data as Uint8Array<ArrayBuffer>, { contentType: "image/jpeg" });

Deno.test("the memory store tells what it lets go of: an equal copy it does not keep, an entry's last key", async () => {
  const gone: number[] = [];
  const store = new MemoryStore({ onLetGo: (n) => gone.push(n) });
  await put(store, "a/original", bytes(1000, 1));
  assert.deepEqual(gone, [], "a new photo is held");
  await put(store, "b/original", bytes(1000, 1));
  assert.deepEqual(gone, [1000], "the same photo again: the upload's copy is let go, the held one kept");
  assert.equal(store.usedBytes, 1000);
  await store.delete("a/original");
  assert.deepEqual(gone, [1000], "still held by another key");
  await store.delete("b/original");
  assert.deepEqual(gone, [1000, 1000], "its last key gone");
  await put(store, "c/result", bytes(10, 2));
  await put(store, "c/result", bytes(20, 3));
  assert.deepEqual(gone, [1000, 1000, 10], "a key stored again lets its old bytes go");
  assert.equal(store.usedBytes, 20);
});

Deno.test("the collector runs once the threshold is let go, after the last bytes, at most once per interval", async () => {
  let clock = 0;
  let runs = 0;
  const collector = new LetGoCollector({
    collect: () => runs++,
    thresholdBytes: 10 * MB,
    delayMs: 30,
    minIntervalMs: 1_000,
    maxWaitMs: 200,
    now: () => clock,
  });
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  try {
    collector.letGo(4 * MB);
    collector.letGo(4 * MB);
    await wait(60);
    assert.equal(runs, 0, "under the threshold nothing runs");
    collector.letGo(4 * MB);
    await wait(10);
    assert.equal(runs, 0, "due 30 ms after the bytes that reached it");
    collector.letGo(1 * MB);
    await wait(60);
    assert.equal(runs, 1);
    assert.equal(collector.pendingBytes, 0);

    clock = 100; // 100 ms after the first run: the next may come 1,000 ms after it
    collector.letGo(20 * MB);
    await wait(60);
    assert.equal(runs, 1, "not twice within the interval");
    clock = 1_000;
    collector.letGo(0);
    await wait(60);
    assert.equal(runs, 2, "due again once the interval has passed");
  } finally {
    collector.close();
  }
});

Deno.test("a collection frees Blob bytes V8 does not count", async () => {
  const { before, held, after, count } = await inFreshProcess<
    { before: number; held: number; after: number; count: number }
  >(new URL("./blob-collection-scenario.ts", import.meta.url));
  assert.equal(count, 64);
  assert.ok(held - before > 48, `64 MB of Blobs raised RSS by ${held - before} MB`);
  assert.ok(held - after > 32, `the collection gave back ${held - after} MB`);
});

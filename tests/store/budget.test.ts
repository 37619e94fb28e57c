import assert from "node:assert/strict";
import { ByteBudget, jobKey, MemoryStore } from "../../server/store/mod.ts";

Deno.test("the memory store counts a Blob stored under two keys once, and frees it with its last key", async () => {
  const store = new MemoryStore();
  const blob = new Blob([new Uint8Array(1000)], { type: "image/jpeg" });
  await store.put(jobKey("j1", "original"), blob, { contentType: "image/jpeg" });
  await store.put(jobKey("j1", "result"), blob, { contentType: "image/jpeg" });
  assert.equal(store.usedBytes, 1000);
  await store.put(jobKey("j1", "thumbnail"), new Uint8Array(50), { contentType: "image/webp" });
  assert.equal(store.usedBytes, 1050);
  await store.delete(jobKey("j1", "original"));
  assert.equal(store.usedBytes, 1050);
  await store.deletePrefix("jobs/j1/");
  assert.equal(store.usedBytes, 0);
});

Deno.test("the memory store holds equal bytes of one type once, whoever stored them, until the last key goes", async () => {
  const store = new MemoryStore();
  const bytes = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31) % 256);
  await store.put(jobKey("j1", "original"), bytes.slice(), { contentType: "image/jpeg" });
  await store.put(jobKey("j2", "original"), new Blob([bytes.slice()]), { contentType: "image/jpeg" });
  assert.equal(store.usedBytes, 5000, "the same photo uploaded twice");
  await store.put(jobKey("j3", "original"), bytes.slice(), { contentType: "image/webp" });
  assert.equal(store.usedBytes, 10_000, "another type is another object");
  const changed = bytes.slice();
  changed[4999]! ^= 1;
  await store.put(jobKey("j4", "original"), changed, { contentType: "image/jpeg" });
  assert.equal(store.usedBytes, 15_000, "one byte apart: two objects");
  await store.deletePrefix("jobs/j1/");
  assert.equal(store.usedBytes, 15_000, "j2 still holds it");
  assert.deepEqual(new Uint8Array(await store.blob(jobKey("j2", "original"))!.arrayBuffer()), bytes);
  await store.deletePrefix("jobs/j2/");
  assert.equal(store.usedBytes, 10_000);
  await store.put(jobKey("j5", "original"), bytes.slice(), { contentType: "image/jpeg" });
  assert.equal(store.usedBytes, 15_000, "stored again after its last key went");
});

Deno.test("a byte budget promises room to uploads in flight and never more than its cap", async () => {
  const store = new MemoryStore();
  const budget = new ByteBudget(1000, () => store.usedBytes);
  const first = budget.reserve();
  const second = budget.reserve();
  assert.ok(first.grow(600));
  assert.equal(second.grow(500), false, "600 promised + 500 > 1000");
  assert.ok(second.grow(400));
  assert.equal(budget.heldBytes, 1000);
  assert.equal(budget.hasRoomFor(1), false);

  await store.put(jobKey("j1", "original"), new Uint8Array(600), { contentType: "image/jpeg" });
  first.release();
  first.release(); // safe twice
  assert.equal(budget.heldBytes, 1000, "stored bytes take the place of the promise");
  second.release();
  assert.equal(budget.reservedBytes, 0);
  assert.ok(budget.hasRoomFor(400));
  assert.equal(first.grow(1), false, "a released reservation takes nothing more");
});

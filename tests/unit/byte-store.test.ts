import assert from "node:assert/strict";
import { ByteStore } from "../../server/services/compression/byte-store.ts";

const file = (bytes: number) => ({ data: new Blob([new Uint8Array(bytes)]), mimeType: "image/jpeg" });

Deno.test("the byte store counts originals, results and thumbnails, and frees all three on delete", () => {
  const store = new ByteStore(10_000);
  const original = file(1000);
  store.putOriginal("a", original);
  store.putResult("a", file(400));
  store.putThumbnail("a", file(50));
  assert.equal(store.usedBytes, 1450);
  store.putThumbnail("a", file(60)); // replaced, not added
  assert.equal(store.usedBytes, 1460);
  store.putOriginal("b", file(500));
  store.putResult("b", store.original("b")!); // a kept original holds no extra bytes
  assert.equal(store.usedBytes, 1960);
  assert.equal(store.hasRoomFor(8040), true);
  assert.equal(store.hasRoomFor(8041), false);
  store.delete("a");
  assert.equal(store.usedBytes, 500);
  assert.equal(store.thumbnail("a"), null);
  store.putThumbnail("a", file(10)); // a deleted job takes nothing
  assert.equal(store.usedBytes, 500);
});

/** The behaviour every byte store backend keeps, run by byte-store-contract.test.ts against each one. */
import assert from "node:assert/strict";
import { type ByteStore, deleteJob, jobKey, listAll, StoreError, sweepStoredBefore } from "../../server/store/mod.ts";

export function binaryBytes(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ bytes: Uint8Array; chunks: number }> {
  const parts: Uint8Array[] = [];
  for await (const chunk of stream) parts.push(chunk);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return { bytes, chunks: parts.length };
}

function streamOf(bytes: Uint8Array, chunkSize = 64 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

let next = 0;
/** A job id no other step uses, so steps never see each other's keys. */
function freshJob(): string {
  return `job-${Date.now().toString(36)}-${next++}`;
}

export async function storeContract(t: Deno.TestContext, store: ByteStore): Promise<void> {
  await t.step("put then get gives back every byte value and the content type", async () => {
    const key = jobKey(freshJob(), "original");
    const bytes = new Uint8Array(256).map((_, i) => i);
    const put = await store.put(key, bytes, { contentType: "image/jpeg" });
    assert.equal(put.size, 256);
    const got = await store.get(key);
    assert.ok(got);
    assert.equal(got.size, 256);
    assert.equal(got.contentType, "image/jpeg");
    assert.deepEqual((await readAll(got.body)).bytes, bytes);
  });

  await t.step("a 5 MB body round trips and its get streams in several chunks", async () => {
    const key = jobKey(freshJob(), "result");
    const bytes = binaryBytes(5 * 1024 * 1024, 7);
    await store.put(key, bytes, { contentType: "image/webp" });
    const got = await store.get(key);
    assert.ok(got);
    assert.ok(got.body instanceof ReadableStream);
    assert.equal(got.size, bytes.byteLength);
    assert.equal(got.contentType, "image/webp");
    const read = await readAll(got.body);
    assert.ok(read.chunks > 1, `expected a streamed body, got ${read.chunks} chunk`);
    assert.equal(read.bytes.byteLength, bytes.byteLength);
    assert.ok(read.bytes.every((b, i) => b === bytes[i]), "bytes differ");
  });

  await t.step("put takes a Blob and a ReadableStream of known size", async () => {
    const job = freshJob();
    const bytes = binaryBytes(300_000, 3);
    await store.put(jobKey(job, "original"), new Blob([bytes], { type: "application/x-ignored" }), {
      contentType: "image/jpeg",
    });
    await store.put(jobKey(job, "result"), streamOf(bytes, 10_000), { contentType: "image/jpeg", size: bytes.length });
    for (const part of ["original", "result"] as const) {
      const got = await store.get(jobKey(job, part));
      assert.ok(got, part);
      assert.equal(got.contentType, "image/jpeg", part);
      assert.deepEqual((await readAll(got.body)).bytes, bytes, part);
    }
  });

  await t.step("a stream shorter or longer than its declared size is refused and stores nothing", async () => {
    const key = jobKey(freshJob(), "original");
    await assert.rejects(
      store.put(key, streamOf(new Uint8Array(10)), { contentType: "image/jpeg", size: 11 }),
      StoreError,
    );
    await assert.rejects(
      store.put(key, streamOf(new Uint8Array(12)), { contentType: "image/jpeg", size: 11 }),
      StoreError,
    );
    await assert.rejects(store.put(key, streamOf(new Uint8Array(1)), { contentType: "image/jpeg" }), TypeError);
    assert.equal(await store.get(key), null);
    assert.deepEqual(await listAll(store, key), []);
  });

  await t.step("a second put replaces the bytes and the content type", async () => {
    const key = jobKey(freshJob(), "result");
    await store.put(key, binaryBytes(1000, 1), { contentType: "image/jpeg" });
    await store.put(key, binaryBytes(10, 2), { contentType: "image/webp" });
    const got = await store.get(key);
    assert.ok(got);
    assert.equal(got.contentType, "image/webp");
    assert.deepEqual((await readAll(got.body)).bytes, binaryBytes(10, 2));
    const head = await store.head(key);
    assert.equal(head?.size, 10);
    assert.equal(head?.contentType, "image/webp");
  });

  await t.step("a missing key answers null to get and head, and deleting it is no error", async () => {
    const key = jobKey(freshJob(), "thumbnail");
    assert.equal(await store.get(key), null);
    assert.equal(await store.head(key), null);
    await store.delete(key);
    assert.equal(await store.deletePrefix(`jobs/${freshJob()}/`), 0);
  });

  await t.step("delete removes one key and leaves the job's others", async () => {
    const job = freshJob();
    await store.put(jobKey(job, "original"), binaryBytes(100), { contentType: "image/jpeg" });
    await store.put(jobKey(job, "result"), binaryBytes(50), { contentType: "image/jpeg" });
    await store.delete(jobKey(job, "result"));
    assert.equal(await store.get(jobKey(job, "result")), null);
    assert.equal((await store.head(jobKey(job, "original")))?.size, 100);
  });

  await t.step("deleting a job removes its three keys and no other job's, even one whose id it prefixes", async () => {
    const job = freshJob();
    const other = `${job}0`; // "jobs/<job>0/…" starts with "jobs/<job>" but not with "jobs/<job>/"
    for (const id of [job, other]) {
      for (const part of ["original", "result", "thumbnail"] as const) {
        await store.put(jobKey(id, part), binaryBytes(20), { contentType: "image/jpeg" });
      }
    }
    assert.equal(await deleteJob(store, job), 3);
    assert.deepEqual(await listAll(store, `jobs/${job}/`), []);
    for (const part of ["original", "result", "thumbnail"] as const) {
      assert.equal(await store.get(jobKey(job, part)), null);
      assert.ok(await store.head(jobKey(other, part)), `${other} ${part} kept`);
    }
    assert.equal(await deleteJob(store, other), 3);
  });

  await t.step("list gives each key under a prefix with its size and stored-at time", async () => {
    const job = freshJob();
    const before = Date.now();
    await store.put(jobKey(job, "original"), binaryBytes(123), { contentType: "image/jpeg" });
    await store.put(jobKey(job, "thumbnail"), binaryBytes(45), { contentType: "image/webp" });
    const after = Date.now();
    const listed = (await listAll(store, `jobs/${job}/`)).sort((a, b) => a.key.localeCompare(b.key));
    assert.deepEqual(listed.map((o) => [o.key, o.size]), [[jobKey(job, "original"), 123], [
      jobKey(job, "thumbnail"),
      45,
    ]]);
    for (const { storedAt } of listed) {
      // S3 keeps the time to the second.
      assert.ok(storedAt.getTime() >= before - 1000 && storedAt.getTime() <= after + 1000, storedAt.toISOString());
    }
    assert.ok((await listAll(store, "jobs/")).length >= 2);
    await deleteJob(store, job);
  });

  await t.step(
    "the retention sweep removes what was stored before the cutoff and keeps what the app claims",
    async () => {
      const job = freshJob();
      await store.put(jobKey(job, "original"), binaryBytes(10), { contentType: "image/jpeg" });
      await store.put(jobKey(job, "result"), binaryBytes(10), { contentType: "image/jpeg" });
      const kept = jobKey(job, "original");
      assert.deepEqual(
        await sweepStoredBefore(store, { prefix: `jobs/${job}/`, storedBefore: new Date(Date.now() - 60_000) }),
        [],
        "nothing is that old",
      );
      const removed = await sweepStoredBefore(store, {
        prefix: `jobs/${job}/`,
        storedBefore: new Date(Date.now() + 5_000),
        keep: (key) => key === kept,
      });
      assert.deepEqual(removed, [jobKey(job, "result")]);
      assert.ok(await store.head(kept));
      await deleteJob(store, job);
    },
  );

  await t.step("keys that could leave the store's folder or hide as temp files are refused", async () => {
    for (const key of ["../x", "jobs/../../etc/passwd", "/abs", "jobs//x", ".hidden", "jobs/a/.tmp", ""]) {
      await assert.rejects(store.put(key, new Uint8Array(1), { contentType: "image/jpeg" }), TypeError, key);
    }
  });
}

import assert from "node:assert/strict";
import { join } from "node:path";
import { FileStore, jobKey, listAll, StoreError } from "../../server/store/mod.ts";
import { binaryBytes, readAll } from "./contract.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "file-store-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, rel: string) => {
    for await (const e of Deno.readDir(d)) {
      if (e.isDirectory) await walk(join(d, e.name), `${rel}${e.name}/`);
      else out.push(`${rel}${e.name}`);
    }
  };
  await walk(dir, "");
  return out.sort();
}

Deno.test("the file store's bytes survive reopening the store on the same folder", () =>
  withDir(async (dir) => {
    const bytes = binaryBytes(200_000, 5);
    const first = new FileStore(dir);
    const put = await first.put(jobKey("j1", "original"), bytes, { contentType: "image/jpeg" });
    await first.close();

    const second = new FileStore(dir);
    const got = await second.get(jobKey("j1", "original"));
    assert.ok(got);
    assert.equal(got.contentType, "image/jpeg");
    assert.equal(got.storedAt.getTime(), put.storedAt.getTime());
    assert.deepEqual((await readAll(got.body)).bytes, bytes);
    assert.deepEqual((await listAll(second, "jobs/")).map((o) => o.key), ["jobs/j1/original"]);
  }));

Deno.test("the file store writes one file per key and leaves no temp file behind", () =>
  withDir(async (dir) => {
    const store = new FileStore(dir);
    await store.put(jobKey("j1", "original"), binaryBytes(10), { contentType: "image/jpeg" });
    await store.put(jobKey("j1", "result"), binaryBytes(10), { contentType: "image/jpeg" });
    await store.put(jobKey("j1", "result"), binaryBytes(20), { contentType: "image/jpeg" });
    assert.deepEqual(await filesUnder(dir), ["jobs/j1/original", "jobs/j1/result"]);
  }));

Deno.test("a put cut short keeps the old bytes under the key and removes its temp file", () =>
  withDir(async (dir) => {
    const store = new FileStore(dir);
    const key = jobKey("j1", "result");
    await store.put(key, binaryBytes(100, 1), { contentType: "image/jpeg" });
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(binaryBytes(50, 2));
        controller.error(new Error("client went away"));
      },
    });
    await assert.rejects(store.put(key, failing, { contentType: "image/jpeg", size: 100 }), /client went away/);
    const got = await store.get(key);
    assert.ok(got);
    assert.deepEqual((await readAll(got.body)).bytes, binaryBytes(100, 1));
    assert.deepEqual(await filesUnder(dir), ["jobs/j1/result"]);
  }));

Deno.test("a temp file left by a crash is neither listed nor read, and goes with its job", () =>
  withDir(async (dir) => {
    const store = new FileStore(dir);
    await store.put(jobKey("j1", "original"), binaryBytes(10), { contentType: "image/jpeg" });
    await Deno.writeTextFile(join(dir, "jobs/j1/.result.0000.tmp"), "half a file");
    assert.deepEqual((await listAll(store, "jobs/")).map((o) => o.key), ["jobs/j1/original"]);
    assert.equal(await store.get(jobKey("j1", "result")), null);
    assert.equal(await store.deletePrefix("jobs/j1/"), 1);
    assert.deepEqual(await filesUnder(dir), []);
  }));

Deno.test("deleting a job's last file removes its folder", () =>
  withDir(async (dir) => {
    const store = new FileStore(dir);
    await store.put(jobKey("j1", "original"), binaryBytes(10), { contentType: "image/jpeg" });
    await store.delete(jobKey("j1", "original"));
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  }));

Deno.test("a file the store did not write is reported as damaged, not served", () =>
  withDir(async (dir) => {
    const store = new FileStore(dir);
    await store.put(jobKey("j1", "original"), binaryBytes(10), { contentType: "image/jpeg" });
    await Deno.writeTextFile(join(dir, "jobs/j1/original"), '{"v":1,"contentType":"image/jpeg","size":99}\nshort');
    await assert.rejects(store.get(jobKey("j1", "original")), StoreError);
  }));

Deno.test("check creates the store's folder and says when it cannot write there", async () => {
  await withDir(async (dir) => {
    await new FileStore(join(dir, "a/b")).check();
    assert.ok(Deno.statSync(join(dir, "a/b")).isDirectory);
    await Deno.writeTextFile(join(dir, "file"), "x");
    await assert.rejects(new FileStore(join(dir, "file/sub")).check(), /file store: cannot write in/);
  });
});

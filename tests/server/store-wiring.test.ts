/** The app over the byte store STORE_URL names: originals, results and thumbnails live there, downloads and ZIPs stream from it, and the app enforces the TTL. */
import assert from "node:assert/strict";
import { createTestApp, signUp, upload, waitForJobs } from "../setup/app-harness.ts";
import { HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { FileStore, jobKey, listAll } from "../../server/store/mod.ts";

Deno.test("with a file: store, a job's original, result and thumbnail are files; download and ZIP stream them; the TTL sweep deletes them", async () => {
  const dir = await Deno.makeTempDir();
  let now = Date.parse("2026-06-01T12:00:00Z");
  const compressor = new HeldCompressor(1);
  const store = new FileStore(dir);
  const t = await createTestApp({ compressor, store, resultTtlMs: 60_000, now: () => now });
  const { cookie } = await signUp(t);
  const { jobs, batch } = await (await upload(t, cookie, [taggedFile("f1")])).json();
  const id = jobs[0].id;
  assert.ok(await store.head(jobKey(id, "original")), "the original is stored before the job runs");
  (await compressor.started(1))[0]!.finish();
  await waitForJobs(t, cookie, (js) => js[0]?.status === "completed");
  assert.deepEqual((await listAll(store, `jobs/${id}/`)).map((o) => o.key).sort(), [
    jobKey(id, "original"),
    jobKey(id, "result"),
    jobKey(id, "thumbnail"),
  ]);

  const download = await t.request(`/api/download/${id}`, { headers: { Cookie: cookie } });
  assert.equal(download.status, 200);
  const body = new Uint8Array(await download.arrayBuffer());
  assert.equal(download.headers.get("content-length"), String(body.length));
  const stored = await store.get(jobKey(id, "result"));
  assert.deepEqual(body, new Uint8Array(await new Response(stored!.body).arrayBuffer()));

  const zip = await t.request(`/api/batches/${batch.id}/download.zip`, { headers: { Cookie: cookie } });
  assert.equal(zip.status, 200);
  const zipBytes = new Uint8Array(await zip.arrayBuffer());
  assert.equal(new TextDecoder().decode(zipBytes.subarray(0, 2)), "PK");
  assert.ok(zipBytes.length > body.length);

  now += 61_000;
  assert.equal(await t.compression.retention.sweepExpired(), 1);
  assert.deepEqual(await listAll(store, "jobs/"), [], "the app deleted the bytes when their time was up");
  assert.equal((await t.request(`/api/download/${id}`, { headers: { Cookie: cookie } })).status, 410);
  await t.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deleting a job deletes its stored bytes; the stray sweep removes old bytes no job claims", async () => {
  const dir = await Deno.makeTempDir();
  const compressor = new HeldCompressor(1);
  const store = new FileStore(dir);
  const t = await createTestApp({ compressor, store });
  const { cookie } = await signUp(t);
  const { jobs } = await (await upload(t, cookie, [taggedFile("d1"), taggedFile("d2")])).json();
  (await compressor.started(1))[0]!.finish();
  await waitForJobs(t, cookie, (js) => js.some((j) => j.status === "completed"));
  await compressor.started(2);
  // d2 is running: deleting it aborts it and frees its original.
  assert.equal(
    (await t.request(`/api/jobs/${jobs[1].id}`, { method: "DELETE", headers: { Cookie: cookie } })).status,
    200,
  );
  assert.deepEqual(await listAll(store, `jobs/${jobs[1].id}/`), []);
  // A stray: bytes under a job id no row has (a crash between storing and recording).
  await store.put(jobKey("stray", "original"), new Uint8Array(10), { contentType: "image/jpeg" });
  // Everything counts as old here; only the completed, unexpired job's bytes are claimed and kept.
  const removed = await t.compression.retention.sweepStrays(new Date(Date.now() + 60_000));
  assert.deepEqual(removed, [jobKey("stray", "original")]);
  assert.equal((await listAll(store, `jobs/${jobs[0].id}/`)).length, 3);
  await t.close();
  await Deno.remove(dir, { recursive: true });
});

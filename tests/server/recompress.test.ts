/** Re-compressing from the originals still held (issue 15, item 5), with a compressor the test drives. */
import assert from "node:assert/strict";
import { createTestApp, jsonInit, signUp, type TestApp, upload, waitForJobs } from "../setup/app-harness.ts";
import { HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { DEFAULT_SETTINGS, FREE_RECOMPRESSIONS_PER_IMAGE } from "../../contract/settings.ts";

const usedToday = async (t: TestApp, cookie: string) =>
  (await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json()).used;

async function completedUpload(t: TestApp, compressor: HeldCompressor, cookie: string, tags: string[]) {
  const before = compressor.calls.length; // the first may begin while the upload arrives (ADR 056)
  const { jobs, batch } = await (await upload(t, cookie, tags.map((tag) => taggedFile(tag)))).json();
  for (let i = 0; i < tags.length; i++) (await compressor.started(before + i + 1))[before + i]!.finish();
  await waitForJobs(
    t,
    cookie,
    (all) => jobs.every((j: { id: string }) => all.find((a) => a.id === j.id)?.status === "completed"),
  );
  return { jobs, batch };
}

const recompress = (t: TestApp, path: string, cookie: string, quality: number) =>
  t.request(path, jsonInit("POST", { settings: { ...DEFAULT_SETTINGS, quality } }, { Cookie: cookie }));

Deno.test("POST /api/jobs/:id/recompress compresses the kept original again with new settings, at no quota, keeping the old result", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  const { jobs: [first] } = await completedUpload(t, compressor, cookie, ["photo"]);
  assert.equal(await usedToday(t, cookie), 1);

  const res = await recompress(t, `/api/jobs/${first.id}/recompress`, cookie, 55);
  assert.equal(res.status, 201);
  const { jobs: [again], batch } = await res.json();
  assert.equal(again.sourceJobId, first.id);
  assert.equal(again.settings.quality, 55);
  assert.equal(batch.totalFiles, 1);
  const call = (await compressor.started(2))[1]!;
  assert.equal(call.tag, "photo", "the same original, not a new upload");
  assert.equal(call.settings.quality, 55);
  // The old result is still there while the new one runs.
  assert.equal((await t.request(`/api/download/${first.id}`, { headers: { Cookie: cookie } })).status, 200);
  call.finish();
  await waitForJobs(t, cookie, (all) => all.every((j) => j.status === "completed"));
  assert.equal(await usedToday(t, cookie), 1, "re-compressing an image charged today is free");
  await t.close();
});

Deno.test(`only ${FREE_RECOMPRESSIONS_PER_IMAGE} re-compressions of one image are free; later ones cost a unit`, async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  const { jobs: [first] } = await completedUpload(t, compressor, cookie, ["photo"]);
  let source = first;
  for (let i = 1; i <= FREE_RECOMPRESSIONS_PER_IMAGE + 1; i++) {
    // Chained: re-compressing a re-compression counts against the first upload.
    const { jobs: [next] } = await (await recompress(t, `/api/jobs/${source.id}/recompress`, cookie, 50 + i)).json();
    assert.equal(next.sourceJobId, first.id);
    (await compressor.started(i + 1))[i]!.finish();
    await waitForJobs(t, cookie, (all) => all.every((j) => j.status === "completed"));
    source = next;
  }
  assert.equal(await usedToday(t, cookie), 2);
  await t.close();
});

Deno.test("POST /api/batches/:id/recompress re-runs the batch's completed images as a new batch", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  const { jobs: [a, b], batch } = await (await upload(t, cookie, [taggedFile("a"), taggedFile("b")])).json();
  (await compressor.started(1))[0]!.finish();
  (await compressor.started(2))[1]!.fail(new (await import("../../codecs/mod.ts")).CodecError("corrupt_image", "x"));
  await waitForJobs(t, cookie, (all) => all.every((j) => j.status === "completed" || j.status === "error"));
  const res = await recompress(t, `/api/batches/${batch.id}/recompress`, cookie, 70);
  assert.equal(res.status, 201);
  const body = await res.json();
  assert.deepEqual(body.jobs.map((j: { sourceJobId: string }) => j.sourceJobId), [a.id]);
  assert.notEqual(body.batch.id, batch.id);
  assert.match(body.batch.name, /re-compressed/);
  assert.ok(b.id);
  (await compressor.started(3))[2]!.finish();
  await t.close();
});

Deno.test("re-compression is refused for unfinished, expired, foreign jobs and for bad settings", async () => {
  const compressor = new HeldCompressor(1);
  let now = Date.now();
  const t = await createTestApp({ compressor, resultTtlMs: 60_000, now: () => now });
  const { cookie } = await signUp(t);
  const other = (await signUp(t, "mallory")).cookie;
  const { jobs: [done] } = await completedUpload(t, compressor, cookie, ["done"]);
  const { jobs: [waiting] } = await (await upload(t, cookie, [taggedFile("waiting")])).json();

  assert.equal((await recompress(t, `/api/jobs/${waiting.id}/recompress`, cookie, 60)).status, 409);
  assert.equal((await recompress(t, `/api/jobs/${done.id}/recompress`, other, 60)).status, 404);
  const bad = await t.request(
    `/api/jobs/${done.id}/recompress`,
    jsonInit("POST", { settings: { ...DEFAULT_SETTINGS, quality: 0 } }, { Cookie: cookie }),
  );
  assert.equal(bad.status, 400);
  const premiumOnly = await t.request(
    `/api/jobs/${done.id}/recompress`,
    jsonInit("POST", { settings: { ...DEFAULT_SETTINGS, target: { kind: "auto" } } }, { Cookie: cookie }),
  );
  assert.equal(premiumOnly.status, 403);
  now += 61_000;
  const expired = await recompress(t, `/api/jobs/${done.id}/recompress`, cookie, 60);
  assert.equal(expired.status, 410);
  // The app's RESULT_TTL (60 s here), worded for any store: nothing claims the bytes were in memory.
  assert.equal(
    (await expired.json()).error,
    "The originals have been deleted (images are kept for a minute after compression); please upload the images again",
  );
  (await compressor.started(2))[1]!.finish();
  await t.close();
});

Deno.test("[regression] deleting a batch's last job removes the batch too", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  const { jobs: [only] } = await completedUpload(t, compressor, cookie, ["only"]);
  assert.equal(
    (await t.request(`/api/jobs/${only.id}`, { method: "DELETE", headers: { Cookie: cookie } })).status,
    200,
  );
  const { batches } = await (await t.request("/api/batches", { headers: { Cookie: cookie } })).json();
  assert.equal(batches.length, 0);
  await t.close();
});

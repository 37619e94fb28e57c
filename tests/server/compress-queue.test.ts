/** Scheduling, batch controls, quota refunds, retention and ownership, with a compressor the test drives. */
import assert from "node:assert/strict";
import { createTestApp, makePremium, signUp, type TestApp, upload, waitForJobs } from "../setup/app-harness.ts";
import { HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { expectConsoleError } from "../setup/fail-on-console-error.ts";
import { waitFor } from "../setup/wait-for.ts";
import { CompressionService, RESTART_MESSAGE } from "../../server/services/compression/compression-service.ts";
import { MemoryStore } from "../../server/store/mod.ts";
import { jobs as jobsTable } from "../../db/schema.ts";

const files = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => taggedFile(`${prefix}${i}`));
const get = async (t: Awaited<ReturnType<typeof createTestApp>>, path: string, cookie: string) =>
  await (await t.request(path, { headers: { Cookie: cookie } })).json();
const post = (t: Awaited<ReturnType<typeof createTestApp>>, path: string, cookie: string, method = "POST") =>
  t.request(path, { method, headers: { Cookie: cookie } });

/**
 * The tags of the jobs the app's scheduler runs and holds queued. It dispatches synchronously (on an
 * enqueue, a resume, a run's end), so right after the event that made it dispatch, this is what it
 * decided, and it starts nothing more until the next such event: "nothing else started" is read here
 * instead of hoped for after a sleep.
 */
async function scheduled(t: TestApp): Promise<{ running: string[]; queued: string[] }> {
  const rows = await t.db.select({ id: jobsTable.id, filename: jobsTable.filename }).from(jobsTable);
  const tagOf = (id: string) => rows.find((r) => r.id === id)?.filename.replace(/\.jpg$/, "") ?? id;
  const s = t.compression.scheduler;
  return {
    running: rows.filter((r) => s.isRunning(r.id)).map((r) => tagOf(r.id)).sort(),
    queued: s.queuedIds().map(tagOf).sort(),
  };
}

/** Waits for the runs the test ended to have ended here too (each end dispatched whatever may start). */
const runsEnded = (t: TestApp, running: number) =>
  waitFor(() => t.compression.scheduler.runningCount === running, {
    message: () => `${running} job(s) running (${t.compression.scheduler.runningCount})`,
  });

Deno.test("a Premium job overtakes queued free jobs", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const free = await signUp(t, "freeuser");
  const premium = await signUp(t, "payinguser");
  await makePremium(t, "payinguser");
  await upload(t, free.cookie, files("free", 3));
  await compressor.started(1);
  await upload(t, premium.cookie, [taggedFile("vip")]);
  compressor.calls[0]!.finish();
  const calls = await compressor.started(2);
  assert.equal(calls[1]!.tag, "vip");
  await t.close();
});

Deno.test("a 100-file Premium batch does not starve a second user", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const a = await signUp(t, "bigbatch");
  const b = await signUp(t, "smallbatch");
  await makePremium(t, "bigbatch");
  await makePremium(t, "smallbatch");
  assert.equal((await upload(t, a.cookie, files("a", 100), { maxConcurrent: "10" })).status, 201);
  await compressor.started(1);
  await upload(t, b.cookie, [taggedFile("b0")]);
  compressor.calls[0]!.finish();
  const calls = await compressor.started(2);
  assert.equal(calls[1]!.tag, "b0", "the second user is served next, not after 99 more");
  await t.close();
});

Deno.test("a high-priority batch of the same user runs before a normal one", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await makePremium(t, "alice");
  await upload(t, cookie, files("n", 3), { priority: "normal" });
  await compressor.started(1);
  await upload(t, cookie, [taggedFile("urgent")], { priority: "high" });
  compressor.calls[0]!.finish();
  assert.equal((await compressor.started(2))[1]!.tag, "urgent");
  await t.close();
});

Deno.test("a free user runs at most 2 jobs at once; queue status reports the slots", async () => {
  const compressor = new HeldCompressor(4);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await upload(t, cookie, files("f", 4));
  await compressor.started(2);
  // The upload's enqueue dispatched at once: two run, the other two wait for the user's slots.
  assert.deepEqual(await scheduled(t), { running: ["f0", "f1"], queued: ["f2", "f3"] });
  assert.equal(compressor.calls.length, 2);
  assert.deepEqual(await get(t, "/api/queue/status", cookie), {
    maxConcurrentJobs: 2,
    currentlyProcessing: 2,
    availableSlots: 0,
  });
  await t.close();
});

Deno.test("jobs run side by side only while their estimated memory fits the server's budget", async () => {
  // 500 MB a job: one at a time under the server's 780 MB budget, although 4 slots are free.
  const compressor = Object.assign(new HeldCompressor(4), { jobMemory: () => 500 * 1024 * 1024 });
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await makePremium(t, "alice");
  await upload(t, cookie, files("m", 3), { maxConcurrent: "4" });
  await compressor.started(1);
  assert.deepEqual(await scheduled(t), { running: ["m0"], queued: ["m1", "m2"] }, "m1 does not fit beside m0");
  assert.equal(compressor.calls.length, 1);
  compressor.calls[0]!.finish();
  await compressor.started(2);
  // m0's end dispatched m1 (m0 is gone from the running ones: its run has ended), and m2 does not fit beside it.
  assert.deepEqual(await scheduled(t), { running: ["m1"], queued: ["m2"] });
  assert.equal(compressor.calls.length, 2);
  await t.close();
});

Deno.test("progress moves while a job is processing", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await upload(t, cookie, [taggedFile("a")]);
  const [call] = await compressor.started(1);
  call!.call.onProgress(42.4);
  const { jobs } = await get(t, "/api/jobs", cookie);
  assert.equal(jobs[0].status, "processing");
  assert.equal(jobs[0].progress, 42);
  call!.finish();
  await waitForJobs(t, cookie, (js) => js[0]?.status === "completed");
  await t.close();
});

Deno.test("pause holds a batch's pending jobs, resume releases them", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  const { batch } = await (await upload(t, cookie, files("p", 3))).json();
  await compressor.started(1);
  const paused = await post(t, `/api/batches/${batch.id}/pause`, cookie);
  assert.equal(paused.status, 200);
  assert.equal((await paused.json()).batch.status, "paused");
  compressor.calls[0]!.finish();
  await runsEnded(t, 0); // p0's run ended here, and the dispatch after it started nothing
  assert.deepEqual(await scheduled(t), { running: [], queued: ["p1", "p2"] }, "nothing new starts while paused");
  assert.equal(compressor.calls.length, 1);
  assert.equal((await get(t, "/api/batches", cookie)).batches[0].status, "paused");
  assert.equal((await post(t, `/api/batches/${batch.id}/pause`, cookie)).status, 409);

  const resumed = await post(t, `/api/batches/${batch.id}/resume`, cookie);
  assert.equal((await resumed.json()).batch.status, "processing");
  (await compressor.started(2))[1]!.finish();
  (await compressor.started(3))[2]!.finish();
  await waitForJobs(t, cookie, (js) => js.every((j) => j.status === "completed"));
  assert.equal((await get(t, "/api/batches", cookie)).batches[0].status, "completed");
  assert.equal((await post(t, `/api/batches/${batch.id}/resume`, cookie)).status, 409);
  await t.close();
});

Deno.test("cancelling a batch drops pending work, aborts the running job, keeps completed ones and refunds quota", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  const { batch } = await (await upload(t, cookie, files("c", 4))).json();
  (await compressor.started(1))[0]!.finish();
  const [, running] = await compressor.started(2);
  const res = await post(t, `/api/batches/${batch.id}`, cookie, "DELETE");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.batch.status, "cancelled");
  assert.ok(running!.aborted, "the in-flight job was aborted");
  const statuses = body.batch.jobs.map((j: { status: string }) => j.status);
  assert.deepEqual(statuses, ["completed", "error", "error", "error"]);
  assert.equal((await get(t, "/api/usage", cookie)).used, 1, "only the completed job counts");
  const completed = body.batch.jobs[0];
  assert.equal((await post(t, `/api/download/${completed.id}`, cookie, "GET")).status, 200);
  // The cancel dropped the queued jobs and awaited the aborted run's end (and the dispatch after it).
  assert.deepEqual(await scheduled(t), { running: [], queued: [] }, "nothing else starts");
  assert.equal(compressor.calls.length, 2);
  assert.equal((await post(t, `/api/batches/${batch.id}`, cookie, "DELETE")).status, 409);
  await t.close();
});

Deno.test("pauseOnError pauses the batch when a job fails, and the failure refunds its quota", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await upload(t, cookie, files("e", 3), { pauseOnError: "true" });
  const [first] = await compressor.started(1);
  const { CodecError } = await import("../../codecs/errors.ts");
  first!.fail(new CodecError("corrupt_image", "Cannot decode the image: its scan data is corrupt"));
  const jobs = await waitForJobs(t, cookie, (js) => js.some((j) => j.status === "error"));
  const failed = jobs.find((j: { status: string }) => j.status === "error");
  assert.equal(failed.errorMessage, "Cannot decode the image: its scan data is corrupt");
  assert.equal((await get(t, "/api/batches", cookie)).batches[0].status, "paused");
  await runsEnded(t, 0); // the failed run ended here, and the dispatch after it started nothing
  assert.deepEqual(await scheduled(t), { running: [], queued: ["e1", "e2"] });
  assert.equal(compressor.calls.length, 1);
  assert.equal((await get(t, "/api/usage", cookie)).used, 2);
  await t.close();
});

Deno.test("an unexpected failure shows a generic message, never internals", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await upload(t, cookie, [taggedFile("x")]);
  // The internals go to the server's log only.
  await expectConsoleError(
    /^\{"level":"error","msg":"job failed","job":"\S+","error":\{"name":"Error","message":"wasm trap at 0xdeadbeef"/,
    async () => {
      (await compressor.started(1))[0]!.fail(new Error("wasm trap at 0xdeadbeef"));
      const [job] = await waitForJobs(t, cookie, (js) => js[0]?.status === "error");
      assert.equal(job.errorMessage, "Compression failed unexpectedly; please try again");
    },
  );
  await t.close();
});

Deno.test("a result not smaller than the input keeps the original, notes it, and costs no quota", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await upload(t, cookie, [taggedFile("tiny")]);
  (await compressor.started(1))[0]!.finish({ keptOriginal: true });
  const [job] = await waitForJobs(t, cookie, (js) => js[0]?.status === "completed");
  assert.equal(job.keptOriginal, true);
  assert.equal(job.note, "already optimised");
  assert.equal(job.compressedSize, job.originalSize);
  assert.equal((await get(t, "/api/usage", cookie)).used, 0);
  const dl = await post(t, `/api/download/${job.id}`, cookie, "GET");
  assert.equal((await dl.arrayBuffer()).byteLength, job.originalSize);
  await t.close();
});

Deno.test("DELETE /api/jobs/:id aborts an in-flight job, drops its bytes at once and refunds it", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  const { jobs } = await (await upload(t, cookie, files("d", 2))).json();
  const [running] = await compressor.started(1);
  assert.equal((await post(t, `/api/jobs/${jobs[0].id}`, cookie, "DELETE")).status, 200);
  assert.ok(running!.aborted);
  assert.equal((await post(t, `/api/preview/${jobs[0].id}`, cookie, "GET")).status, 404);
  assert.equal((await get(t, "/api/jobs", cookie)).jobs.length, 1);
  assert.equal((await get(t, "/api/usage", cookie)).used, 1);
  // The next job starts once the slot is free.
  await compressor.started(2);
  await t.close();
});

Deno.test("a completed job's bytes expire after the TTL: the record stays, download answers 410", async () => {
  let now = Date.parse("2026-06-01T12:00:00Z");
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor, resultTtlMs: 60_000, now: () => now });
  const { cookie } = await signUp(t);
  await upload(t, cookie, [taggedFile("e")]);
  (await compressor.started(1))[0]!.finish();
  const [job] = await waitForJobs(t, cookie, (js) => js[0]?.status === "completed");
  assert.equal(job.expiresAt, new Date(now + 60_000).toISOString());
  assert.equal((await post(t, `/api/download/${job.id}`, cookie, "GET")).status, 200);
  now += 61_000;
  assert.equal(await t.compression.retention.sweepExpired(), 1);
  const res = await post(t, `/api/download/${job.id}`, cookie, "GET");
  assert.equal(res.status, 410);
  assert.match((await res.json()).error, /expired/);
  const [after] = (await get(t, "/api/jobs", cookie)).jobs;
  assert.equal(after.status, "completed");
  assert.equal(after.expired, true);
  await t.close();
});

Deno.test("after a restart, unfinished jobs fail with a clear message and give their quota back", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await upload(t, cookie, files("r", 3));
  (await compressor.started(1))[0]!.finish();
  await waitForJobs(t, cookie, (js) => js.some((j) => j.status === "completed"));
  await compressor.started(2);
  // A new process on the same database: its memory holds none of the old bytes.
  const restarted = new CompressionService({
    db: t.db,
    compressor: new HeldCompressor(1),
    store: new MemoryStore(),
    maxStoreBytes: 1024 * 1024,
    resultTtlMs: 3_600_000,
  });
  assert.deepEqual(await restarted.recovery.recoverAfterRestart(), { resumed: 0, failed: 2 });
  const jobs = await restarted.queries.listJobs(1);
  const errors = jobs.filter((j) => j.status === "error");
  assert.equal(errors.length, 2);
  assert.ok(errors.every((j) => j.errorMessage === RESTART_MESSAGE));
  assert.equal(jobs.find((j) => j.status === "completed")?.expired, true);
  assert.equal((await restarted.queries.usage((await t.db.query.users.findFirst())!)).used, 1);
  assert.equal((await restarted.queries.listBatches(1))[0]!.status, "completed");
  await t.close();
});

Deno.test("another user's job and batch ids answer 404 on every route", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const owner = await signUp(t, "owner");
  const other = await signUp(t, "other");
  const { jobs, batch } = await (await upload(t, owner.cookie, files("o", 2))).json();
  (await compressor.started(1))[0]!.finish();
  await waitForJobs(t, owner.cookie, (js) => js.some((j) => j.status === "completed"));
  const done = jobs[0].id;
  const routes: Array<[string, string]> = [
    ["GET", `/api/download/${done}`],
    ["GET", `/api/preview/${done}`],
    ["GET", `/api/preview/${done}?size=thumb`],
    ["DELETE", `/api/jobs/${done}`],
    ["POST", `/api/batches/${batch.id}/pause`],
    ["POST", `/api/batches/${batch.id}/resume`],
    ["DELETE", `/api/batches/${batch.id}`],
    ["GET", `/api/batches/${batch.id}/download.zip`],
  ];
  for (const [method, path] of routes) {
    const res = await post(t, path, other.cookie, method);
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.ok((await res.json()).error);
  }
  assert.equal((await get(t, "/api/jobs", other.cookie)).jobs.length, 0);
  assert.equal((await get(t, "/api/batches", other.cookie)).batches.length, 0);
  // The owner still has everything.
  assert.equal((await post(t, `/api/download/${done}`, owner.cookie, "GET")).status, 200);
  await t.close();
});

Deno.test("GET /api/jobs lists the user's jobs newest first", async () => {
  let now = Date.parse("2026-06-01T12:00:00Z");
  const t = await createTestApp({ compressor: new HeldCompressor(1), now: () => now });
  const { cookie } = await signUp(t);
  await upload(t, cookie, [taggedFile("first", "first.jpg")]);
  now += 1000;
  await upload(t, cookie, [taggedFile("second", "second.jpg")]);
  const { jobs } = await get(t, "/api/jobs", cookie);
  assert.deepEqual(jobs.map((j: { filename: string }) => j.filename), ["second.jpg", "first.jpg"]);
  await t.close();
});

Deno.test("a job's thumbnail is served once it has completed, and goes with the job", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  const { jobs } = await (await upload(t, cookie, files("th", 1))).json();
  const id = jobs[0].id;
  const early = await post(t, `/api/preview/${id}?size=thumb`, cookie, "GET");
  assert.equal(early.status, 409);
  assert.match((await early.json()).error, /not completed yet/);
  const thumbnail = Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9);
  (await compressor.started(1))[0]!.finish({ thumbnail });
  await waitForJobs(t, cookie, (js) => js[0]?.status === "completed");
  const res = await post(t, `/api/preview/${id}?size=thumb`, cookie, "GET");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "image/jpeg");
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), thumbnail);
  assert.match(res.headers.get("content-disposition") ?? "", /^inline; filename="th0\.jpg"/);
  assert.equal((await post(t, `/api/jobs/${id}`, cookie, "DELETE")).status, 200);
  assert.equal((await post(t, `/api/preview/${id}?size=thumb`, cookie, "GET")).status, 404);
  await t.close();
});

Deno.test("a fixed-quality result downloads before its score, which is measured when a worker is free", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await upload(t, cookie, files("s", 2));
  const [first] = await compressor.started(1);
  assert.equal(first!.call.deferScore, true, "no target: the score may come later");
  first!.finish({ scores: null });
  // The second job runs before the first one's score: results first.
  const calls = await compressor.started(2);
  assert.equal(calls[1]!.tag, "s1");
  const jobs = await waitForJobs(t, cookie, (js) => js.some((j) => j.status === "completed"));
  const done = jobs.find((j: { status: string }) => j.status === "completed");
  assert.equal(done.scorePending, true);
  assert.equal(done.scores, null);
  assert.equal((await t.request(`/api/download/${done.id}`, { headers: { Cookie: cookie } })).status, 200);
  assert.equal(compressor.scoreCalls.length, 0, "the only worker is busy with s1");

  calls[1]!.finish({ scores: null });
  await waitFor(() => compressor.scoreCalls.length > 0, { message: "a score measured once the worker is free" });
  assert.equal(compressor.scoreCalls[0]!.tag, "s0");
  compressor.scoreCalls[0]!.finish();
  const scored = await waitForJobs(t, cookie, (js) => js.find((j) => j.id === done.id)!.scorePending === false);
  const job = scored.find((j: { id: string }) => j.id === done.id);
  assert.equal(job.scores.overall, 90);
  assert.equal(job.status, "completed");
  await t.close();
});

Deno.test("a target job is measured in its own run, never deferred", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await makePremium(t, "alice");
  await upload(t, cookie, [taggedFile("auto")], { target: JSON.stringify({ kind: "auto" }) });
  const [call] = await compressor.started(1);
  assert.equal(call!.call.deferScore, false);
  await t.close();
});

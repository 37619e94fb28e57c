/** Durable jobs (ADR 018): leases, adoption by another instance, and resuming after a restart. */
import assert from "node:assert/strict";
import { createDb } from "../../db/client.ts";
import { createTestApp, signUp, upload, waitForJobs } from "../setup/app-harness.ts";
import { HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { CompressionService } from "../../server/services/compression/compression-service.ts";
import { FileStore, MemoryStore } from "../../server/store/mod.ts";
import { waitFor } from "../setup/wait-for.ts";

const LEASE = 30_000;

/** An app on a file: database and a file: store in a fresh folder, and the same process started again over them. */
async function onFiles() {
  const dir = await Deno.makeTempDir();
  const databaseUrl = `file:${dir}/app.db`;
  const heldA = new HeldCompressor(1);
  const t = await createTestApp({ compressor: heldA, store: new FileStore(`${dir}/store`), databaseUrl });
  const restart = async () => {
    const database = await createDb({ url: databaseUrl });
    const heldB = new HeldCompressor(1);
    const restarted = new CompressionService({
      db: database.db,
      compressor: heldB,
      store: new FileStore(`${dir}/store`),
      maxStoreBytes: 64 * 1024 * 1024,
      resultTtlMs: 3_600_000,
    });
    return { database, heldB, restarted };
  };
  return { dir, heldA, t, restart };
}

Deno.test("a job whose instance stops renewing is adopted after its lease by another instance and completes, charged once", async () => {
  let now = Date.parse("2026-06-01T12:00:00Z");
  const store = new MemoryStore(); // shared by both instances, as S3 would be
  const heldA = new HeldCompressor(1);
  const t = await createTestApp({ compressor: heldA, store, now: () => now });
  const { cookie, user } = await signUp(t);
  const { jobs } = await (await upload(t, cookie, [taggedFile("x1")])).json();
  const callA = (await heldA.started(1))[0]!;

  const heldB = new HeldCompressor(1);
  const b = new CompressionService({
    db: t.db,
    compressor: heldB,
    store,
    maxStoreBytes: 64 * 1024 * 1024,
    resultTtlMs: 3_600_000,
    now: () => now,
    sharedDatabase: true,
    leaseMs: LEASE,
  });
  assert.deepEqual(await b.recovery.adoptOrphans(), { resumed: 0, failed: 0 }, "A's lease still holds");
  now += LEASE + 1; // A never renewed: it is gone, or stalled
  assert.deepEqual(await b.recovery.adoptOrphans(), { resumed: 1, failed: 0 });
  (await heldB.started(1))[0]!.finish();
  await waitForJobs(t, cookie, (js) => js[0]?.status === "completed");

  // A wakes up and finishes too: its result is refused, its heartbeat learns the job is gone.
  callA.finish();
  await t.compression.leaseKeeper.heartbeat();
  const [job] = await b.queries.listJobs(user.id);
  assert.equal(job?.id, jobs[0].id);
  assert.equal(job?.status, "completed");
  assert.equal((await b.queries.usage((await t.db.query.users.findFirst())!)).used, 1, "charged once");
  assert.equal((await t.request(`/api/download/${job!.id}`, { headers: { Cookie: cookie } })).status, 200);
  await b.drain(100);
  await t.close();
});

Deno.test("a restart over a file: database and a file: store resumes the unfinished jobs and completes them, charged once", async () => {
  const { dir, heldA, t, restart } = await onFiles();
  const { cookie, user } = await signUp(t);
  await upload(t, cookie, [taggedFile("r1"), taggedFile("r2")]);
  await heldA.started(1); // r1 runs, r2 waits: then the process "dies" (never finishes, never releases)

  const { database, heldB, restarted } = await restart();
  assert.deepEqual(await restarted.recovery.recoverAfterRestart(), { resumed: 2, failed: 0 });
  (await heldB.started(1))[0]!.finish();
  (await heldB.started(2))[1]!.finish();
  await waitFor(async () => (await restarted.queries.listJobs(user.id)).every((j) => j.status === "completed"), {
    message: "both jobs completed on the restarted process",
  });
  const jobs = await restarted.queries.listJobs(user.id);
  assert.deepEqual(jobs.map((j) => j.status), ["completed", "completed"]);
  const used = async () => (await restarted.queries.usage((await database.db.query.users.findFirst())!)).used;
  assert.equal(await used(), 2);
  // The old process's late result changes nothing. Its run of r1 ends (its result refused: the job is no
  // longer its own), and the end dispatches r2, still queued there, whose start is refused too: the old
  // scheduler empties once both are done.
  heldA.calls[0]!.finish();
  const old = t.compression.scheduler;
  await waitFor(() => old.runningCount === 0 && old.queuedCount === 0, {
    message: () => `the old process's runs ended (${old.runningCount} running, ${old.queuedCount} queued)`,
  });
  assert.deepEqual(await restarted.queries.listJobs(user.id), jobs, "the jobs are as the restarted process left them");
  assert.equal(await used(), 2, "still charged once each");
  assert.equal(heldA.calls.length, 1, "the old process never compressed r2");
  await restarted.drain(100);
  database.close();
  await t.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("on shutdown the jobs still queued are released for the next start or another instance", async () => {
  const held = new HeldCompressor(1);
  const t = await createTestApp({ compressor: held });
  const { cookie } = await signUp(t);
  await upload(t, cookie, [taggedFile("s1"), taggedFile("s2")]);
  const [running] = await held.started(1);
  const drained = t.compression.drain(5_000);
  running!.finish();
  await drained;
  const rows = await t.db.query.jobs.findMany();
  const waiting = rows.find((r) => r.status === "pending");
  assert.ok(waiting, "the queued job is still pending");
  assert.equal(waiting.leaseOwner, null, "and no instance holds it");
  await t.close();
});

Deno.test("a restart over a file: store measures the deferred scores the previous process left unmeasured", async () => {
  const { dir, heldA, t, restart } = await onFiles();
  const { cookie, user } = await signUp(t);
  await upload(t, cookie, [taggedFile("q1")]);
  (await heldA.started(1))[0]!.finish({ scores: null });
  await waitForJobs(t, cookie, (js) => js[0]?.status === "completed" && js[0]?.scorePending === true);

  const { database, heldB, restarted } = await restart();
  await restarted.recovery.recoverAfterRestart();
  await waitFor(() => heldB.scoreCalls.length > 0, { message: "the restarted process measuring the score" });
  assert.equal(heldB.scoreCalls[0]?.tag, "q1");
  heldB.scoreCalls[0]!.finish();
  const job = await waitFor(async () => {
    const [j] = await restarted.queries.listJobs(user.id);
    return j?.scorePending === false && j;
  }, { message: "the score stored" });
  assert.equal(job.scorePending, false);
  assert.equal(job.expired, false, "a file: store keeps completed results across a restart");
  assert.ok(job.scores);
  await restarted.drain(100);
  database.close();
  await t.close();
  await Deno.remove(dir, { recursive: true });
});

/**
 * The shared queue (ADR 018): instances on one database, each pulling unclaimed jobs while it has
 * free slots, in the scheduler's order (Premium first), within each user's concurrency over all
 * instances; lapsed leases and deferred scores are pulled too; WORKERS=0 never runs a job.
 */
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { createTestApp, makePremium, peerInstance, signUp, upload, waitForJobs } from "../setup/app-harness.ts";
import { HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { CompressionService } from "../../server/services/compression/compression-service.ts";
import { noCompressor } from "../../server/services/compression/codec-compressor.ts";
import { MemoryStore } from "../../server/store/mod.ts";
import { lifecycleOn } from "../setup/lifecycle-rows.ts";
import type { Compressor } from "../../server/services/compression/compressor.ts";
import { jobs, users } from "../../db/schema.ts";
import { planOf } from "../../server/services/plan.ts";
import { waitFor } from "../setup/wait-for.ts";

const LEASE = 30_000;
/** How often the instances with workers poll the queue. */
const POLL_MS = 20;

/**
 * An HTTP-only instance (WORKERS=0) on a shared queue, and a way to add instances with workers.
 * Each one runs as it does in production (startLeaseTimers): it pulls at once, then on every poll
 * and whenever a slot frees; the tests move the lease clock (`now`) and wait for the claims.
 */
async function cluster(now: () => number) {
  const store = new MemoryStore(); // shared by every instance, as S3 would be
  const t = await createTestApp({ compressor: noCompressor(), store, now, sharedQueue: true, leaseMs: LEASE });
  const instances: CompressionService[] = [];
  const worker = (compressor: Compressor) => {
    const s = peerInstance(t, compressor, store, { now, leaseMs: LEASE, pollMs: POLL_MS });
    instances.push(s);
    return s;
  };
  const close = async () => {
    for (const s of instances) await s.drain(100);
    await t.close();
  };
  return { t, worker, close };
}

type Cluster = Awaited<ReturnType<typeof cluster>>;

/** The file names of the unfinished jobs `instance` holds a lease on. */
async function heldBy(t: Cluster["t"], instance: CompressionService): Promise<string[]> {
  const rows = await t.db.select().from(jobs).where(eq(jobs.leaseOwner, instance.instanceId));
  return rows.filter((r) => r.status !== "completed").map((r) => r.filename).sort();
}

const rowOf = async (t: Cluster["t"], id: string) => (await t.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

/** Waits until the job's deferred score has been stored. */
const scoreStored = (t: Cluster["t"], id: string) =>
  waitFor(async () => !(await rowOf(t, id)).scoreDue, { message: `job ${id}'s score stored` });

/**
 * An idle instance looks for unmeasured scores at its start and then once a lease, and a look that finds
 * nothing to take leaves no trace: no event shows that it happened. Where a test asserts that an instance
 * did not take a measurement, it gives the instances this window (several polls) to do it wrongly, then
 * reads the database: who holds the score's lease (the lease columns of a completed job).
 */
const scoreScanWindow = () => new Promise((r) => setTimeout(r, 10 * POLL_MS));

/** One job uploaded by frida, run by a new instance B and completed with its score deferred. */
async function completedOnB(
  t: Awaited<ReturnType<typeof cluster>>["t"],
  worker: Awaited<ReturnType<typeof cluster>>["worker"],
) {
  const { cookie } = await signUp(t, "frida");
  await upload(t, cookie, [taggedFile("s1")]);
  const heldB = new HeldCompressor(1);
  const b = worker(heldB);
  (await heldB.started(1))[0]!.finish({ scores: null });
  return { cookie, heldB, b };
}

Deno.test("WORKERS=0 records jobs without running them; an instance with workers pulls them, Premium first", async () => {
  const now = Date.now();
  const { t, worker, close } = await cluster(() => now);
  // No slots, so no puller: nothing on the HTTP-only instance ever claims a job.
  assert.equal(t.compression.scheduler.slots, 0);
  const free = await signUp(t, "frida");
  const premium = await signUp(t, "pia");
  await makePremium(t, "pia");
  await upload(t, free.cookie, [taggedFile("f1"), taggedFile("f2")]);
  await upload(t, premium.cookie, [taggedFile("p1")]);
  // Admission committed the jobs before answering, unclaimed; no instance with workers exists yet.
  const rows = await t.db.select().from(jobs);
  assert.equal(rows.length, 3);
  assert.ok(
    rows.every((r) => r.status === "pending" && r.leaseOwner === null),
    "the HTTP-only instance claimed nothing",
  );

  const held = new HeldCompressor(1);
  const b = worker(held);
  const [first] = await held.started(1);
  assert.equal(first!.tag, "p1", "Premium goes first, though it came last");
  // B's one slot runs p1, and a pull claims at most the free slots (slots − running − queued): until p1
  // ends, every pull of B stops before it reads the queue.
  assert.deepEqual([b.scheduler.runningCount, b.scheduler.queuedCount], [1, 0]);
  assert.deepEqual(await heldBy(t, b), ["p1.jpg"], "no free slot: B claims nothing more");
  assert.equal(held.calls.length, 1);
  first!.finish();
  await waitForJobs(t, premium.cookie, (js) => js[0]?.status === "completed");
  assert.equal((await held.started(2))[1]!.tag, "f1", "the freed slot pulls the next job");
  held.calls[1]!.finish();
  (await held.started(3))[2]!.finish();
  await waitForJobs(t, free.cookie, (js) => js.length === 2 && js.every((j) => j.status === "completed"));
  assert.equal(
    (await t.compression.queries.usage(
      (await t.db.query.users.findFirst({ where: (u, { eq }) => eq(u.username, "frida") }))!,
    ))
      .used,
    2,
  );
  await close();
});

Deno.test("a user's concurrency holds over all instances; work spreads; a lapsed lease goes to another instance", async () => {
  let now = Date.now();
  const { t, worker, close } = await cluster(() => now);
  const { cookie } = await signUp(t, "frida"); // free: 2 at once
  // Gina's single jobs show D's pulls: an instance pulls once at a time, so when D claims one, the pull
  // before it has ended, and that pull had a free slot and frida's waiting jobs on offer.
  const gina = await signUp(t, "gina");
  const ginaUploads = (tag: string) => upload(t, gina.cookie, [taggedFile(tag)]);
  await upload(t, cookie, ["a", "b", "c", "d"].map((x) => taggedFile(x)));
  const heldB = new HeldCompressor(1), heldC = new HeldCompressor(1), heldD = new HeldCompressor(2);
  // One after the other, so each has pulled before the next starts.
  worker(heldB);
  const [jb] = await heldB.started(1);
  const c = worker(heldC);
  const [jc] = await heldC.started(1);
  assert.deepEqual([jb!.tag, jc!.tag].sort(), ["a", "b"]);
  // B and C are full now. D pulls with its 2 slots free: it may take gina's jobs, none of frida's.
  const d = worker(heldD);
  await ginaUploads("g1");
  assert.equal((await heldD.started(1))[0]!.tag, "g1");
  await ginaUploads("g2");
  assert.equal((await heldD.started(2))[1]!.tag, "g2");
  assert.deepEqual(await heldBy(t, d), ["g1.jpg", "g2.jpg"], "the user holds 2 jobs already, on B and C");
  const status = await (await t.request("/api/queue/status", { headers: { Cookie: cookie } })).json();
  assert.equal(status.currentlyProcessing, 2, "the HTTP-only instance counts the jobs running on B and C");
  assert.equal(status.availableSlots, 0);
  heldD.calls.forEach((call) => call.finish());
  await waitForJobs(t, gina.cookie, (js) => js.every((j) => j.status === "completed"));

  // B dies (never finishes nor renews: its heartbeat timer, every third of a 30 s lease, does not
  // come round in this test): after its lease, its job is claimable and D takes it. C renews half a
  // lease in, so its own lease never lapses while D polls.
  now += LEASE / 2;
  await c.leaseKeeper.heartbeat();
  now += LEASE / 2 + 1;
  const jd = (await heldD.started(3))[2]!;
  assert.equal(jd.tag, jb!.tag, "B's lapsed job, within the user's 2 (C's renewed + this one)");
  // The pull that took it had a slot left, and frida's c and d on offer; the pull that takes g3 begins after it.
  await ginaUploads("g3");
  assert.equal((await heldD.started(4))[3]!.tag, "g3");
  assert.deepEqual(await heldBy(t, d), [`${jb!.tag}.jpg`, "g3.jpg"], "and only that one");
  jc!.finish();
  jd!.finish();
  jb!.finish(); // B wakes: its result is refused (no longer its job)
  await waitForJobs(t, cookie, (js) => js.filter((j) => j.status === "completed").length === 2);
  // B is alive again: it may pull the rest too, beside C and D, as their slots free.
  const calls = () => [...heldB.calls, ...heldC.calls, ...heldD.calls];
  await waitFor(async () => {
    for (const call of calls()) call.finish();
    return (await t.db.select().from(jobs)).every((r) => r.status === "completed");
  }, { message: () => `every job completed (${calls().length} runs started)` });
  const fridaRuns = calls().filter((call) => !call.tag.startsWith("g"));
  assert.equal(fridaRuns.length, 5, "4 jobs, one of them run twice (B's lapsed one)");
  const rows = await t.db.select().from(jobs);
  assert.ok(rows.every((r) => r.leaseOwner === null));
  assert.equal((await t.compression.queries.usage((await t.db.query.users.findFirst())!)).used, 4, "charged once each");
  await close();
});

Deno.test("a deferred score no instance measured is measured by an idle instance, once", async () => {
  let now = Date.now();
  const { t, worker, close } = await cluster(() => now);
  const { cookie, b } = await completedOnB(t, worker);
  await waitForJobs(t, cookie, (js) => js[0]?.status === "completed");
  // B died before measuring it (its background score never runs here: drop it).
  await b.drain(10);
  const [row] = await t.db.select().from(jobs);
  assert.equal(row!.scoreDue, true);

  const heldC = new HeldCompressor(1);
  const c = worker(heldC);
  await scoreScanWindow();
  // (The lease is nobody's, or B's if B had begun measuring before it died.)
  assert.notEqual(
    (await rowOf(t, row!.id)).leaseOwner,
    c.instanceId,
    "not before the running instance had a lease's time to measure it: C did not take it",
  );
  assert.equal(heldC.scoreCalls.length, 0);
  now += LEASE + 1;
  await waitFor(() => heldC.scoreCalls.length > 0, { message: "C measuring the score once the lease passed" });
  const heldD = new HeldCompressor(1);
  worker(heldD);
  await scoreScanWindow();
  const measuring = await rowOf(t, row!.id);
  assert.equal(measuring.leaseOwner, c.instanceId, "C measures it: the score's lease is C's");
  assert.ok(measuring.leaseExpiresAt!.getTime() > now, "and it holds: D may not take it");
  assert.equal(heldD.scoreCalls.length, 0);
  assert.equal(heldC.scoreCalls.length, 1);
  heldC.scoreCalls[0]!.finish();
  await scoreStored(t, row!.id);
  const done = await rowOf(t, row!.id);
  assert.equal(done.scoreDue, false);
  assert.ok(done.scoresJson);
  assert.equal(done.leaseOwner, null);
  await close();
});

Deno.test("progress of a job running on one instance is visible through another within a flush", async () => {
  const now = Date.now();
  const { t, worker, close } = await cluster(() => now);
  const { cookie } = await signUp(t, "frida");
  await upload(t, cookie, [taggedFile("p1")]);
  const held = new HeldCompressor(1);
  worker(held);
  const [call] = await held.started(1);
  const progressThroughA = async () =>
    (await (await t.request("/api/jobs", { headers: { Cookie: cookie } })).json()).jobs[0].progress;
  // B stores its jobs' progress once a second (its flush timer): A answers it within a flush.
  for (const percent of [40, 75]) {
    call!.call.onProgress?.(percent);
    await waitFor(async () => await progressThroughA() === percent, {
      timeoutMs: 3000,
      message: `progress ${percent} through A within a flush`,
    });
  }
  call!.finish();
  await waitForJobs(t, cookie, (js) => js[0]?.status === "completed");
  assert.equal(await progressThroughA(), 100);
  await close();
});

Deno.test("a measurement that outlasts its lease keeps it through the heartbeat: no second instance measures it", async () => {
  let now = Date.now();
  const { t, worker, close } = await cluster(() => now);
  const { heldB, b } = await completedOnB(t, worker);
  await waitFor(() => heldB.scoreCalls.length > 0, { message: "B measuring its own result when idle" });
  assert.equal(heldB.scoreCalls.length, 1, "B measures its own result when idle");
  const { id } = (await t.db.select().from(jobs))[0]!;

  // The measurement runs for several leases; B's heartbeat renews the score's lease meanwhile.
  const heldC = new HeldCompressor(1);
  worker(heldC);
  for (let lease = 0; lease < 3; lease++) {
    now += LEASE / 2;
    await b.leaseKeeper.heartbeat();
    now += LEASE / 2;
    await b.leaseKeeper.heartbeat();
    await scoreScanWindow(); // C looks for unmeasured scores once per lease
    const measuring = await rowOf(t, id);
    assert.equal(measuring.leaseOwner, b.instanceId, `lease ${lease + 1}: the score's lease is still B's`);
    assert.ok(measuring.leaseExpiresAt!.getTime() > now, `lease ${lease + 1}: renewed past now`);
  }
  assert.equal(heldC.scoreCalls.length, 0, "C never measures what B still measures");
  heldB.scoreCalls[0]!.finish();
  await scoreStored(t, id);
  const done = await rowOf(t, id);
  assert.equal(done.scoreDue, false);
  assert.equal(done.leaseOwner, null);
  await close();
});

Deno.test("a batch paused through one instance holds the jobs another instance claimed; resumed anywhere, they run", async () => {
  const now = Date.now();
  const { t, close } = await cluster(() => now);
  const { cookie } = await signUp(t, "frida");
  const { batch } = await (await upload(t, cookie, [taggedFile("a"), taggedFile("b")])).json();
  const batchId = batch.id;
  const lifecycle = lifecycleOn(t.db, () => now);
  const [first, second] = await lifecycle.queue.claimable(10);
  // B claims one and starts it; it claims the other, which waits in its queue for a slot.
  assert.ok(await lifecycle.leases.claim(first!.jobId, "B", now + LEASE, 2));
  assert.ok(await lifecycle.transitions.start(first!.jobId, "B", now + LEASE));
  assert.ok(await lifecycle.leases.claim(second!.jobId, "B", now + LEASE, 2));
  // Paused through the HTTP-only instance A: B's queued job may not start, and goes back to the queue.
  const paused = await t.request(`/api/batches/${batchId}/pause`, { method: "POST", headers: { Cookie: cookie } });
  assert.equal(paused.status, 200);
  assert.equal(
    await lifecycle.transitions.start(second!.jobId, "B", now + LEASE),
    null,
    "a paused batch's job does not start",
  );
  assert.ok(await lifecycle.leases.release(second!.jobId, "B"));
  assert.equal((await lifecycle.queue.claimable(10)).length, 0, "nothing of a paused batch is offered");
  const resumed = await t.request(`/api/batches/${batchId}/resume`, { method: "POST", headers: { Cookie: cookie } });
  assert.equal(resumed.status, 200);
  assert.deepEqual((await lifecycle.queue.claimable(10)).map((j) => j.jobId), [second!.jobId]);
  assert.ok(await lifecycle.leases.claim(second!.jobId, "C", now + LEASE, 2));
  assert.ok(
    await lifecycle.transitions.start(second!.jobId, "C", now + LEASE),
    "after the resume, it starts wherever it is",
  );
  await close();
});

Deno.test("one user's long backlog never hides another user's jobs from the pull", async () => {
  const now = Date.now();
  const { t, close } = await cluster(() => now);
  const pia = await signUp(t, "pia");
  await makePremium(t, "pia");
  await upload(t, pia.cookie, Array.from({ length: 30 }, (_, i) => taggedFile(`p${i}`)));
  const frida = await signUp(t, "frida");
  await upload(t, frida.cookie, [taggedFile("f1")]);
  const lifecycle = lifecycleOn(t.db, () => now);
  const offered = await lifecycle.queue.claimable(5, 2);
  assert.deepEqual(
    offered.map((j) => j.userId),
    [pia.user.id, pia.user.id, frida.user.id],
    "2 per user, Premium first",
  );
  assert.ok((await lifecycle.queue.claimable(200)).some((j) => j.userId === frida.user.id));
  await close();
});

Deno.test("an expired active subscription is offered as free work, as planOf sees it", async () => {
  let clock = Date.now();
  const { t, close } = await cluster(() => clock);
  const uploaded = async (name: string) => {
    const { cookie, user } = await signUp(t, name);
    await upload(t, cookie, [taggedFile(name)]);
    clock += 1000; // each upload a second after the one before: the oldest first among equals
    return user.id;
  };
  const frida = await uploaded("frida");
  const eve = await uploaded("eve");
  const pia = await uploaded("pia");
  await makePremium(t, "pia");
  // Eve's row still says 'active' (no webhook yet), but her period ended yesterday and it was set to cancel:
  // her plan is free now, and her job waits behind Frida's older one.
  const yesterday = Math.floor(clock / 1000) - 86_400;
  await t.db.update(users).set({ subscriptionStatus: "active", currentPeriodEnd: yesterday, cancelAtPeriodEnd: true })
    .where(eq(users.username, "eve"));
  const [eveRow] = await t.db.select().from(users).where(eq(users.username, "eve"));
  assert.equal(planOf(eveRow!, clock).name, "free");
  const offered = await lifecycleOn(t.db, () => clock).queue.claimable(10);
  assert.deepEqual(offered.map((j) => j.userId), [pia, frida, eve], "Premium first, then the free jobs oldest first");
  await close();
});

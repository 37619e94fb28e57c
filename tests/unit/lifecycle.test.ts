import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createDb } from "../../db/client.ts";
import { insertUser } from "../../db/queries/users.ts";
import { findBatch, findJob } from "../../db/queries/jobs.ts";
import { usedOn } from "../../db/queries/usage.ts";
import { dailyUsage } from "../../db/schema.ts";
import { lifecycleOn, pendingBatch } from "../setup/lifecycle-rows.ts";
import { BATCH_STATUSES, type BatchStatus, JOB_STATUSES, type JobStatus } from "../../contract/jobs.ts";
import { QUOTA_REFUNDS_PER_DAY } from "../../contract/plans.ts";
import { CANCELLED_MESSAGE, QuotaExceeded, RESTART_MESSAGE } from "../../server/services/lifecycle/transitions.ts";
import { JobFiles } from "../../server/services/compression/job-files.ts";
import { MemoryStore } from "../../server/store/mod.ts";

/** A job failure as the runner records a corrupt image. */
const corrupt = (message: string) => ({ code: "corrupt_image" as const, message });

const DAY = "2026-06-01";
const NOW = Date.parse(`${DAY}T12:00:00Z`);
const LEASE = 30_000;

async function setup() {
  const database = await createDb({ url: ":memory:" });
  const user = (await insertUser(database.db, {
    username: "alice",
    passwordHash: "x",
    email: null,
    firstName: null,
    lastName: null,
  }))!;
  const { transitions, leases } = lifecycleOn(database.db, () => NOW);
  let n = 0;
  /** Admits one batch of `count` charged jobs (limit 10 a day). */
  const admit = async (count: number, opts: { pauseOnError?: boolean; limit?: number | null } = {}) => {
    const batchId = `b${++n}`;
    const { batch, jobs: jobRows } = pendingBatch({
      batchId,
      userId: user.id,
      count,
      originalSize: 100,
      quotaDay: DAY,
      now: NOW,
      leaseUntil: NOW + LEASE,
      pauseOnError: opts.pauseOnError,
    });
    await transitions.admit(batch, jobRows, {
      userId: user.id,
      day: DAY,
      count,
      limit: opts.limit === undefined ? 10 : opts.limit,
    });
    return { batchId, ids: jobRows.map((r) => r.id) };
  };
  const usage = async () =>
    (await database.db.select().from(dailyUsage))[0] ?? { used: 0, refunded: 0, userId: user.id, day: DAY };
  return { db: database.db, close: database.close, transitions, leases, user, admit, usage };
}

const done = {
  compressedSize: 50,
  quality: 80,
  format: "jpeg" as const,
  encoder: "mozjpeg" as const,
  width: 10,
  height: 10,
  keptOriginal: false,
  scoresJson: null,
  scoreDue: true,
  metadataJson: null,
  webSetJson: null,
};

Deno.test("admit creates the batch, its jobs and their quota units together", async () => {
  const t = await setup();
  const { batchId, ids } = await t.admit(3);
  assert.equal((await findBatch(t.db, batchId))?.status, "pending");
  assert.equal((await findJob(t.db, ids[2]!))?.status, "pending");
  assert.equal(await usedOn(t.db, t.user.id, DAY), 3);
  t.close();
});

Deno.test("admit past the daily limit throws QuotaExceeded and writes nothing at all", async () => {
  const t = await setup();
  await t.admit(8);
  await assert.rejects(t.admit(3), QuotaExceeded);
  assert.equal(await usedOn(t.db, t.user.id, DAY), 8);
  assert.equal(await findBatch(t.db, "b2"), undefined);
  assert.equal(await findJob(t.db, "b2-j0"), undefined);
  // Premium (no limit) still counts.
  await t.admit(5, { limit: null });
  assert.equal(await usedOn(t.db, t.user.id, DAY), 13);
  t.close();
});

Deno.test("fail ends the job, refunds its unit and settles its batch in one transition", async () => {
  const t = await setup();
  const { batchId, ids } = await t.admit(1);
  assert.ok(await t.transitions.start(ids[0]!, "A", NOW + LEASE));
  assert.equal((await findBatch(t.db, batchId))?.status, "processing");
  assert.deepEqual(await t.transitions.fail(ids[0]!, corrupt("broken")), {
    failed: true,
    paused: false,
    freeBytes: [ids[0]],
  });
  const job = (await findJob(t.db, ids[0]!))!;
  assert.equal(job.status, "error");
  assert.deepEqual([job.errorCode, job.errorMessage], ["corrupt_image", "broken"], "its code beside its message");
  assert.equal(job.charged, false);
  assert.deepEqual(
    { used: (await t.usage()).used, refunded: (await t.usage()).refunded },
    { used: 0, refunded: 1 },
  );
  assert.equal((await findBatch(t.db, batchId))?.status, "error");
  // A second fail of an ended job changes nothing (no second refund, no bytes named again).
  assert.deepEqual(await t.transitions.fail(ids[0]!, corrupt("again")), {
    failed: false,
    paused: false,
    freeBytes: [],
  });
  assert.equal((await t.usage()).refunded, 1);
  t.close();
});

Deno.test("a failing transition leaves nothing half-done: no refund without the status, no pause", async () => {
  const t = await setup();
  const { batchId, ids } = await t.admit(2, { pauseOnError: true });
  await t.transitions.start(ids[0]!, "A", NOW + LEASE);
  // The status write fails inside the transition, after the refund and pause statements ran.
  await t.db.run(sql.raw(`CREATE TRIGGER boom BEFORE UPDATE OF status ON jobs WHEN NEW.status = 'error'
    BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`));
  await assert.rejects(t.transitions.fail(ids[0]!, corrupt("broken")), /disk on fire/);
  const job = (await findJob(t.db, ids[0]!))!;
  assert.equal(job.status, "processing");
  assert.equal(job.charged, true, "the unit is still the job's");
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [2, 0]);
  assert.equal((await findBatch(t.db, batchId))?.status, "processing", "not paused");
  await t.db.run(sql.raw(`DROP TRIGGER boom`));
  assert.deepEqual(await t.transitions.fail(ids[0]!, corrupt("broken")), {
    failed: true,
    paused: true,
    freeBytes: [ids[0]],
  });
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [1, 1]);
  assert.equal((await findBatch(t.db, batchId))?.status, "paused");
  t.close();
});

Deno.test("refunds stop at the day's cap: the job keeps its unit", async () => {
  const t = await setup();
  const { ids } = await t.admit(QUOTA_REFUNDS_PER_DAY + 1, { limit: null });
  for (const id of ids) await t.transitions.fail(id, corrupt("broken"));
  const usage = await t.usage();
  assert.equal(usage.refunded, QUOTA_REFUNDS_PER_DAY);
  assert.equal(usage.used, 1);
  const charged = [];
  for (const id of ids) charged.push((await findJob(t.db, id))!.charged);
  assert.equal(charged.filter(Boolean).length, 1);
  t.close();
});

Deno.test("complete records the result; a kept original refunds; a cancelled job cannot complete", async () => {
  const t = await setup();
  const { batchId, ids } = await t.admit(3);
  await t.transitions.start(ids[0]!, "A", NOW + LEASE);
  const { completed: row, freeBytes } = await t.transitions.complete(ids[0]!, "A", done, 60_000);
  assert.deepEqual(freeBytes, [], "a completed job keeps its bytes");
  assert.equal(row?.status, "completed");
  assert.equal(row?.expiresAt?.getTime(), NOW + 60_000);
  assert.equal(row?.charged, true);
  await t.transitions.start(ids[1]!, "A", NOW + LEASE);
  const { completed: kept } = await t.transitions.complete(ids[1]!, "A", { ...done, keptOriginal: true }, 60_000);
  assert.equal(kept?.charged, false);
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [2, 1]);
  await t.transitions.start(ids[2]!, "A", NOW + LEASE);
  assert.deepEqual(await t.transitions.cancelBatch(batchId, ["pending", "processing", "paused"]), {
    ended: [ids[2]],
    freeBytes: [ids[2]],
  });
  assert.deepEqual(await t.transitions.complete(ids[2]!, "A", done, 60_000), {
    completed: null,
    freeBytes: [ids[2]],
  }, "the cancelled job's late result is dropped with its bytes");
  const cancelled = (await findJob(t.db, ids[2]!))!;
  assert.equal(cancelled.errorMessage, CANCELLED_MESSAGE);
  assert.equal(cancelled.errorCode, "cancelled");
  assert.equal((await findBatch(t.db, batchId))?.status, "cancelled");
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [1, 2]);
  // A deferred score arrives once.
  await t.transitions.scoreArrived(ids[0]!, '{"overall":90}');
  assert.equal((await findJob(t.db, ids[0]!))?.scoreDue, false);
  t.close();
});

Deno.test("delete refunds an unfinished job and takes its batch with its last job", async () => {
  const t = await setup();
  const { batchId, ids } = await t.admit(2);
  await t.transitions.start(ids[0]!, "A", NOW + LEASE);
  await t.transitions.complete(ids[0]!, "A", done, 60_000);
  assert.deepEqual(await t.transitions.deleteJob({ id: ids[1]!, batchId }), { freeBytes: [ids[1]] });
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [1, 1]);
  assert.equal((await findBatch(t.db, batchId))?.status, "completed");
  assert.deepEqual(await t.transitions.deleteJob({ id: ids[0]!, batchId }), { freeBytes: [ids[0]] });
  assert.equal((await t.usage()).used, 1, "a completed job keeps its unit");
  assert.equal(await findBatch(t.db, batchId), undefined);
  t.close();
});

Deno.test("abandon fails unfinished jobs with the restart message and releases their units outside the cap", async () => {
  const t = await setup();
  const { batchId, ids } = await t.admit(2);
  await t.transitions.start(ids[0]!, "A", NOW + LEASE);
  assert.deepEqual(await t.transitions.abandon(ids), { freeBytes: ids });
  for (const id of ids) {
    const job = (await findJob(t.db, id))!;
    assert.equal(job.errorMessage, RESTART_MESSAGE);
    assert.equal(job.errorCode, "restarted");
    assert.equal(job.charged, false);
  }
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [0, 0]);
  assert.equal((await findBatch(t.db, batchId))?.status, "error");
  t.close();
});

Deno.test("each transition that ends a job's bytes names exactly the jobs whose bytes go", async () => {
  const t = await setup();
  const { batchId, ids: [done0, deleted, failing, untouched] } = await t.admit(4);
  await t.transitions.start(done0!, "A", NOW + LEASE);
  assert.deepEqual((await t.transitions.complete(done0!, "A", done, 60_000)).freeBytes, [], "completed: kept");
  // Deleted while it ran: the late result is dropped with the job's bytes.
  await t.transitions.start(deleted!, "A", NOW + LEASE);
  assert.deepEqual(await t.transitions.deleteJob({ id: deleted!, batchId }), { freeBytes: [deleted] });
  assert.deepEqual(await t.transitions.complete(deleted!, "A", done, 60_000), {
    completed: null,
    freeBytes: [deleted],
  });
  // A failure that does not apply (another instance holds the job) names nothing; one that does names the job.
  assert.deepEqual((await t.transitions.fail(failing!, corrupt("broken"), "B")).freeBytes, []);
  assert.deepEqual((await t.transitions.fail(failing!, corrupt("broken"), "A")).freeBytes, [failing]);
  assert.deepEqual(await t.transitions.expire([done0!]), { freeBytes: [done0] });
  assert.deepEqual(await t.transitions.expire([]), { freeBytes: [] });
  assert.deepEqual(await t.transitions.abandon([]), { freeBytes: [] });
  // Cancelling names the jobs it ended, never a completed or failed one.
  const second = await t.admit(3, { limit: null });
  await t.transitions.start(second.ids[0]!, "A", NOW + LEASE);
  await t.transitions.complete(second.ids[0]!, "A", done, 60_000);
  await t.transitions.start(second.ids[1]!, "A", NOW + LEASE);
  const cancelled = await t.transitions.cancelBatch(second.batchId, ["pending", "processing", "paused"]);
  assert.deepEqual(cancelled?.freeBytes.toSorted(), second.ids.slice(1).toSorted());
  assert.deepEqual(cancelled?.ended, cancelled?.freeBytes);
  assert.equal(await t.transitions.cancelBatch(second.batchId, ["pending", "processing", "paused"]), null);
  assert.equal(
    (await t.transitions.cancelBatch(batchId, ["pending", "processing", "paused"]))?.freeBytes[0],
    untouched,
  );
  t.close();
});

Deno.test("JobFiles.free frees exactly the jobs a transition names, every part of them, and nothing else", async () => {
  const t = await setup();
  const files = new JobFiles(new MemoryStore(), 1_000_000);
  const { batchId, ids } = await t.admit(3);
  for (const id of ids) {
    await files.put(id, "original", new Uint8Array(100), "image/jpeg");
    await files.put(id, "thumbnail", new Uint8Array(10), "image/jpeg");
  }
  await files.put(ids[0]!, "result", new Uint8Array(50), "image/jpeg");
  await t.transitions.start(ids[0]!, "A", NOW + LEASE);
  await t.transitions.complete(ids[0]!, "A", done, 60_000);
  await t.transitions.start(ids[1]!, "A", NOW + LEASE);
  await files.free((await t.transitions.cancelBatch(batchId, ["pending", "processing", "paused"]))!);
  for (const id of ids.slice(1)) {
    assert.equal(await files.has(id, "original"), false, `${id}'s original is freed`);
    assert.equal(await files.has(id, "thumbnail"), false, `${id}'s thumbnail is freed`);
  }
  for (const part of ["original", "result", "thumbnail"] as const) {
    assert.ok(await files.has(ids[0]!, part), `the completed job keeps its ${part}`);
  }
  assert.equal(files.heldBytes, 160, "the cap counts only what is left");
  await files.free(await t.transitions.deleteJob({ id: ids[0]!, batchId }));
  assert.equal(await files.has(ids[0]!, "result"), false);
  assert.equal(files.heldBytes, 0);
  t.close();
});

/**
 * The batch-status rule (spec §4), as a table: a batch's status after any change, by the mix of
 * its jobs' statuses, from [pending, processing, completed or error], from paused, from cancelled.
 */
const BATCH_RULE: [JobStatus, JobStatus, BatchStatus, BatchStatus, BatchStatus][] = [
  ["pending", "pending", "pending", "paused", "cancelled"],
  ["pending", "processing", "processing", "paused", "cancelled"],
  ["pending", "completed", "processing", "paused", "cancelled"],
  ["pending", "error", "processing", "paused", "cancelled"],
  ["processing", "processing", "processing", "paused", "cancelled"],
  ["processing", "completed", "processing", "paused", "cancelled"],
  ["processing", "error", "processing", "paused", "cancelled"],
  ["completed", "completed", "completed", "completed", "cancelled"],
  ["completed", "error", "completed", "completed", "cancelled"],
  ["error", "error", "error", "error", "cancelled"],
];

Deno.test("the batch status written once in SQL follows spec §4 for every mix of job statuses, whichever part moves it", async () => {
  const t = await setup();
  const { batchId, ids } = await t.admit(2, { limit: null });
  const { batches, jobs } = await import("../../db/schema.ts");
  const { eq } = await import("drizzle-orm");
  const mixes = BATCH_RULE.flatMap((row) =>
    row[0] === row[1] ? [row] : [row, [row[1], row[0], ...row.slice(2)] as typeof row]
  );
  assert.equal(
    new Set(mixes.map(([a, b]) => `${a},${b}`)).size,
    JOB_STATUSES.length ** 2,
    "the table covers every mix",
  );
  // Each refreshes the batch after its own guarded update, which never applies here except
  // resumeBatch's to a paused batch (it resumes first, then the batch follows its jobs).
  const drivers = {
    "a refused start": () => t.transitions.start(ids[0]!, "nobody", NOW + LEASE),
    "a refused release": () => t.leases.release(ids[0]!, "nobody"),
    "resumeBatch": () => t.transitions.resumeBatch(batchId),
  };
  for (const [name, drive] of Object.entries(drivers)) {
    for (const [a, b, active, fromPaused, fromCancelled] of mixes) {
      for (const current of BATCH_STATUSES) {
        await t.db.update(jobs).set({ status: a }).where(eq(jobs.id, ids[0]!));
        await t.db.update(jobs).set({ status: b }).where(eq(jobs.id, ids[1]!));
        await t.db.update(batches).set({ status: current }).where(eq(batches.id, batchId));
        await drive();
        const expected = current === "cancelled"
          ? fromCancelled
          : current === "paused" && name !== "resumeBatch"
          ? fromPaused
          : active;
        assert.equal((await findBatch(t.db, batchId))?.status, expected, `${name}: ${current} with ${a}, ${b}`);
      }
    }
  }
  // A batch without jobs keeps its status.
  const { batch } = pendingBatch({
    batchId: "empty",
    userId: t.user.id,
    count: 0,
    originalSize: 1,
    quotaDay: DAY,
    now: NOW,
    leaseUntil: NOW,
  });
  for (const current of BATCH_STATUSES.filter((s) => s !== "paused")) {
    await t.db.insert(batches).values({ ...batch, status: current }).onConflictDoUpdate({
      target: batches.id,
      set: { status: current },
    });
    await t.transitions.resumeBatch("empty");
    assert.equal((await findBatch(t.db, "empty"))?.status, current, `an empty ${current} batch`);
  }
  t.close();
});

Deno.test("a lease held by instance A cannot be adopted by B until it lapses; a heartbeat keeps it", async () => {
  const t = await setup();
  const clock = { now: NOW };
  const a = lifecycleOn(t.db, () => clock.now);
  const b = lifecycleOn(t.db, () => clock.now);
  const { ids } = await t.admit(1);
  assert.ok(await a.transitions.start(ids[0]!, "A", NOW + LEASE));
  clock.now = NOW + LEASE - 1;
  assert.deepEqual(await b.leases.adopt("B", clock.now + LEASE), [], "A's lease holds");
  assert.deepEqual([...await a.leases.heartbeat("A", ids, clock.now + LEASE, new Map([[ids[0]!, 40]]))], ids);
  clock.now = NOW + LEASE + 1;
  assert.deepEqual(await b.leases.adopt("B", clock.now + LEASE), [], "renewed by the heartbeat");
  assert.equal((await findJob(t.db, ids[0]!))?.progress, 40);
  t.close();
});

Deno.test("an expired lease is adopted by another instance, which completes the job; it is charged once", async () => {
  const t = await setup();
  const clock = { now: NOW };
  const a = lifecycleOn(t.db, () => clock.now);
  const b = lifecycleOn(t.db, () => clock.now);
  const { batchId, ids } = await t.admit(1);
  await a.transitions.start(ids[0]!, "A", NOW + LEASE);
  // A stops renewing (it died); after the lease, B adopts the job: pending again, B's.
  clock.now = NOW + LEASE + 1;
  const [adopted] = await b.leases.adopt("B", clock.now + LEASE);
  assert.equal(adopted?.id, ids[0]);
  assert.equal(adopted?.status, "pending");
  assert.equal(adopted?.leaseOwner, "B");
  // A second adoption finds nothing: the claim is atomic.
  assert.deepEqual(await a.leases.adopt("A", clock.now + LEASE), []);
  assert.equal(await a.transitions.start(ids[0]!, "A", clock.now + LEASE), null, "A can no longer start it");
  assert.ok(await b.transitions.start(ids[0]!, "B", clock.now + LEASE));
  assert.equal((await a.leases.heartbeat("A", ids, clock.now + LEASE, new Map())).size, 0, "A learns it lost the job");
  assert.deepEqual(
    await a.transitions.complete(ids[0]!, "A", done, 60_000),
    { completed: null, freeBytes: [] },
    "A's late result is refused, and the bytes stay: they are B's now",
  );
  assert.deepEqual(await a.transitions.fail(ids[0]!, corrupt("late"), "A"), {
    failed: false,
    paused: false,
    freeBytes: [],
  });
  assert.equal((await b.transitions.complete(ids[0]!, "B", done, 60_000)).completed?.status, "completed");
  const job = (await findJob(t.db, ids[0]!))!;
  assert.equal(job.leaseOwner, null);
  assert.equal(job.charged, true);
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [1, 0], "charged once, never refunded");
  assert.equal((await findBatch(t.db, batchId))?.status, "completed");
  t.close();
});

Deno.test("release gives a held job back as pending with no owner, for anyone to adopt at once", async () => {
  const t = await setup();
  const { ids } = await t.admit(1);
  await t.transitions.start(ids[0]!, "A", NOW + LEASE);
  assert.equal(await t.leases.release(ids[0]!, "B"), false, "only the owner releases");
  assert.equal(await t.leases.release(ids[0]!, "A"), true);
  const [adopted] = await t.leases.adopt("B", NOW + LEASE);
  assert.equal(adopted?.leaseOwner, "B");
  t.close();
});

import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createDb } from "../../db/client.ts";
import { insertUser } from "../../db/queries/users.ts";
import { findBatch, findJob } from "../../db/queries/jobs.ts";
import { usedOn } from "../../db/queries/usage.ts";
import { dailyUsage } from "../../db/schema.ts";
import { pendingBatch } from "../setup/lifecycle-rows.ts";
import { BATCH_STATUSES, type BatchStatus, JOB_STATUSES, type JobStatus } from "../../contract/jobs.ts";
import { QUOTA_REFUNDS_PER_DAY } from "../../contract/plans.ts";
import { deriveBatchStatus } from "../../server/services/compression/batch-status.ts";
import {
  CANCELLED_MESSAGE,
  Lifecycle,
  QuotaExceeded,
  RESTART_MESSAGE,
} from "../../server/services/compression/lifecycle.ts";

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
  const lifecycle = new Lifecycle(database.db, () => NOW);
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
    await lifecycle.admit(batch, jobRows, {
      userId: user.id,
      day: DAY,
      count,
      limit: opts.limit === undefined ? 10 : opts.limit,
    });
    return { batchId, ids: jobRows.map((r) => r.id) };
  };
  const usage = async () =>
    (await database.db.select().from(dailyUsage))[0] ?? { used: 0, refunded: 0, userId: user.id, day: DAY };
  return { db: database.db, close: database.close, lifecycle, user, admit, usage };
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
  assert.ok(await t.lifecycle.start(ids[0]!, "A", NOW + LEASE));
  assert.equal((await findBatch(t.db, batchId))?.status, "processing");
  assert.deepEqual(await t.lifecycle.fail(ids[0]!, "broken"), { failed: true, paused: false });
  const job = (await findJob(t.db, ids[0]!))!;
  assert.equal(job.status, "error");
  assert.equal(job.charged, false);
  assert.deepEqual(
    { used: (await t.usage()).used, refunded: (await t.usage()).refunded },
    { used: 0, refunded: 1 },
  );
  assert.equal((await findBatch(t.db, batchId))?.status, "error");
  // A second fail of an ended job changes nothing (no second refund).
  assert.deepEqual(await t.lifecycle.fail(ids[0]!, "again"), { failed: false, paused: false });
  assert.equal((await t.usage()).refunded, 1);
  t.close();
});

Deno.test("a failing transition leaves nothing half-done: no refund without the status, no pause", async () => {
  const t = await setup();
  const { batchId, ids } = await t.admit(2, { pauseOnError: true });
  await t.lifecycle.start(ids[0]!, "A", NOW + LEASE);
  // The status write fails inside the transition, after the refund and pause statements ran.
  await t.db.run(sql.raw(`CREATE TRIGGER boom BEFORE UPDATE OF status ON jobs WHEN NEW.status = 'error'
    BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`));
  await assert.rejects(t.lifecycle.fail(ids[0]!, "broken"), /disk on fire/);
  const job = (await findJob(t.db, ids[0]!))!;
  assert.equal(job.status, "processing");
  assert.equal(job.charged, true, "the unit is still the job's");
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [2, 0]);
  assert.equal((await findBatch(t.db, batchId))?.status, "processing", "not paused");
  await t.db.run(sql.raw(`DROP TRIGGER boom`));
  assert.deepEqual(await t.lifecycle.fail(ids[0]!, "broken"), { failed: true, paused: true });
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [1, 1]);
  assert.equal((await findBatch(t.db, batchId))?.status, "paused");
  t.close();
});

Deno.test("refunds stop at the day's cap: the job keeps its unit", async () => {
  const t = await setup();
  const { ids } = await t.admit(QUOTA_REFUNDS_PER_DAY + 1, { limit: null });
  for (const id of ids) await t.lifecycle.fail(id, "broken");
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
  await t.lifecycle.start(ids[0]!, "A", NOW + LEASE);
  const row = await t.lifecycle.complete(ids[0]!, "A", done, 60_000);
  assert.equal(row?.status, "completed");
  assert.equal(row?.expiresAt?.getTime(), NOW + 60_000);
  assert.equal(row?.charged, true);
  await t.lifecycle.start(ids[1]!, "A", NOW + LEASE);
  const kept = await t.lifecycle.complete(ids[1]!, "A", { ...done, keptOriginal: true }, 60_000);
  assert.equal(kept?.charged, false);
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [2, 1]);
  await t.lifecycle.start(ids[2]!, "A", NOW + LEASE);
  assert.deepEqual(await t.lifecycle.cancelBatch(batchId, ["pending", "processing", "paused"]), [ids[2]]);
  assert.equal(await t.lifecycle.complete(ids[2]!, "A", done, 60_000), null);
  const cancelled = (await findJob(t.db, ids[2]!))!;
  assert.equal(cancelled.errorMessage, CANCELLED_MESSAGE);
  assert.equal((await findBatch(t.db, batchId))?.status, "cancelled");
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [1, 2]);
  // A deferred score arrives once.
  await t.lifecycle.scoreArrived(ids[0]!, '{"overall":90}');
  assert.equal((await findJob(t.db, ids[0]!))?.scoreDue, false);
  t.close();
});

Deno.test("delete refunds an unfinished job and takes its batch with its last job", async () => {
  const t = await setup();
  const { batchId, ids } = await t.admit(2);
  await t.lifecycle.start(ids[0]!, "A", NOW + LEASE);
  await t.lifecycle.complete(ids[0]!, "A", done, 60_000);
  await t.lifecycle.deleteJob({ id: ids[1]!, batchId });
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [1, 1]);
  assert.equal((await findBatch(t.db, batchId))?.status, "completed");
  await t.lifecycle.deleteJob({ id: ids[0]!, batchId });
  assert.equal((await t.usage()).used, 1, "a completed job keeps its unit");
  assert.equal(await findBatch(t.db, batchId), undefined);
  t.close();
});

Deno.test("abandon fails unfinished jobs with the restart message and releases their units outside the cap", async () => {
  const t = await setup();
  const { batchId, ids } = await t.admit(2);
  await t.lifecycle.start(ids[0]!, "A", NOW + LEASE);
  await t.lifecycle.abandon(ids);
  for (const id of ids) {
    const job = (await findJob(t.db, id))!;
    assert.equal(job.errorMessage, RESTART_MESSAGE);
    assert.equal(job.charged, false);
  }
  assert.deepEqual([(await t.usage()).used, (await t.usage()).refunded], [0, 0]);
  assert.equal((await findBatch(t.db, batchId))?.status, "error");
  t.close();
});

Deno.test("the batch status written in SQL agrees with deriveBatchStatus for every mix of job statuses", async () => {
  const t = await setup();
  const { batchId, ids } = await t.admit(2, { limit: null });
  const { batches, jobs } = await import("../../db/schema.ts");
  const { eq } = await import("drizzle-orm");
  for (const current of BATCH_STATUSES) {
    for (const a of JOB_STATUSES) {
      for (const b of JOB_STATUSES) {
        await t.db.update(jobs).set({ status: a }).where(eq(jobs.id, ids[0]!));
        await t.db.update(jobs).set({ status: b }).where(eq(jobs.id, ids[1]!));
        await t.db.update(batches).set({ status: current }).where(eq(batches.id, batchId));
        // resumeBatch refreshes after its own guarded update, which only applies to paused batches.
        await t.lifecycle.resumeBatch(batchId);
        const expected = deriveBatchStatus(
          current === "paused" ? "processing" : current as BatchStatus,
          [a, b] as JobStatus[],
        );
        assert.equal((await findBatch(t.db, batchId))?.status, expected, `${current} with ${a}, ${b}`);
      }
    }
  }
  t.close();
});

Deno.test("a lease held by instance A cannot be adopted by B until it lapses; a heartbeat keeps it", async () => {
  const t = await setup();
  const clock = { now: NOW };
  const a = new Lifecycle(t.db, () => clock.now);
  const b = new Lifecycle(t.db, () => clock.now);
  const { ids } = await t.admit(1);
  assert.ok(await a.start(ids[0]!, "A", NOW + LEASE));
  clock.now = NOW + LEASE - 1;
  assert.deepEqual(await b.adopt("B", clock.now + LEASE), [], "A's lease holds");
  assert.deepEqual([...await a.heartbeat("A", ids, clock.now + LEASE, new Map([[ids[0]!, 40]]))], ids);
  clock.now = NOW + LEASE + 1;
  assert.deepEqual(await b.adopt("B", clock.now + LEASE), [], "renewed by the heartbeat");
  assert.equal((await findJob(t.db, ids[0]!))?.progress, 40);
  t.close();
});

Deno.test("an expired lease is adopted by another instance, which completes the job; it is charged once", async () => {
  const t = await setup();
  const clock = { now: NOW };
  const a = new Lifecycle(t.db, () => clock.now);
  const b = new Lifecycle(t.db, () => clock.now);
  const { batchId, ids } = await t.admit(1);
  await a.start(ids[0]!, "A", NOW + LEASE);
  // A stops renewing (it died); after the lease, B adopts the job: pending again, B's.
  clock.now = NOW + LEASE + 1;
  const [adopted] = await b.adopt("B", clock.now + LEASE);
  assert.equal(adopted?.id, ids[0]);
  assert.equal(adopted?.status, "pending");
  assert.equal(adopted?.leaseOwner, "B");
  // A second adoption finds nothing: the claim is atomic.
  assert.deepEqual(await a.adopt("A", clock.now + LEASE), []);
  assert.equal(await a.start(ids[0]!, "A", clock.now + LEASE), null, "A can no longer start it");
  assert.ok(await b.start(ids[0]!, "B", clock.now + LEASE));
  assert.equal((await a.heartbeat("A", ids, clock.now + LEASE, new Map())).size, 0, "A learns it lost the job");
  assert.equal(await a.complete(ids[0]!, "A", done, 60_000), null, "A's late result is refused");
  assert.deepEqual(await a.fail(ids[0]!, "late", "A"), { failed: false, paused: false });
  assert.equal((await b.complete(ids[0]!, "B", done, 60_000))?.status, "completed");
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
  await t.lifecycle.start(ids[0]!, "A", NOW + LEASE);
  assert.equal(await t.lifecycle.release(ids[0]!, "B"), false, "only the owner releases");
  assert.equal(await t.lifecycle.release(ids[0]!, "A"), true);
  const [adopted] = await t.lifecycle.adopt("B", NOW + LEASE);
  assert.equal(adopted?.leaseOwner, "B");
  t.close();
});

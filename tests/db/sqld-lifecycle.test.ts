/**
 * The lifecycle's transitions and leases on a real libSQL server (sqld), as several instances share it: the
 * statement batches (quota charge, refund marks, batch status in SQL) run over HTTP as they do on a
 * file, and leases hold between two clients (two instances).
 */
import assert from "node:assert/strict";
import { createDb } from "../../db/client.ts";
import { findBatch, findJob } from "../../db/queries/jobs.ts";
import { usedOn } from "../../db/queries/usage.ts";
import { dailyUsage, users } from "../../db/schema.ts";
import { lifecycleOn, pendingBatch } from "../setup/lifecycle-rows.ts";
import { QuotaExceeded } from "../../server/services/lifecycle/transitions.ts";
import { ensureSqld, startSqld } from "../setup/sqld.ts";

/** A job failure as the runner records a corrupt image. */
const corrupt = (message: string) => ({ code: "corrupt_image" as const, message });

const unavailable = await ensureSqld().then(() => null, (err: Error) => err);
const ignore = unavailable !== null && Deno.env.get("CI") !== "true";
if (ignore) console.warn(`Skipping the sqld lifecycle tests: ${unavailable.message}`);

const DAY = "2026-06-01";
const NOW = Date.parse(`${DAY}T12:00:00Z`);
const LEASE = 30_000;

function test(name: string, fn: (ctx: Awaited<ReturnType<typeof twoInstances>>) => Promise<void>) {
  Deno.test({
    name,
    ignore,
    fn: async () => {
      if (unavailable) throw unavailable;
      const ctx = await twoInstances();
      try {
        await fn(ctx);
      } finally {
        ctx.a.close();
        ctx.b.close();
        await ctx.sqld.stop();
      }
    },
  });
}

/** Two clients (two instances) on one sqld, each with its lifecycle, sharing a clock. */
async function twoInstances() {
  const sqld = await startSqld();
  const a = await createDb({ url: sqld.url });
  const b = await createDb({ url: sqld.url });
  const [user] = await a.db.insert(users).values({ username: "ada", passwordHash: "x" }).returning();
  const clock = { now: NOW };
  const la = lifecycleOn(a.db, () => clock.now);
  const lb = lifecycleOn(b.db, () => clock.now);
  let n = 0;
  const admit = async (count: number, limit: number | null = 10) => {
    const batchId = `b${++n}`;
    const { batch, jobs: rows } = pendingBatch({
      batchId,
      userId: user!.id,
      count,
      originalSize: 1,
      quotaDay: DAY,
      now: clock.now,
      leaseUntil: clock.now + LEASE,
    });
    await la.transitions.admit(batch, rows, { userId: user!.id, day: DAY, count, limit });
    return { batchId, ids: rows.map((r) => r.id) };
  };
  return { sqld, a, b, la, lb, clock, admit, userId: user!.id };
}

const done = {
  compressedSize: 1,
  quality: 80,
  format: "jpeg" as const,
  encoder: "mozjpeg" as const,
  width: 1,
  height: 1,
  keptOriginal: false,
  scoresJson: null,
  scoreDue: false,
  metadataJson: null,
  webSetJson: null,
};

test("on sqld an admission past the limit writes nothing, and a failure refunds with its status", async (t) => {
  await t.admit(8);
  await assert.rejects(t.admit(3), QuotaExceeded);
  assert.equal(await usedOn(t.b.db, t.userId, DAY), 8, "the other instance sees the same count");
  assert.equal(await findBatch(t.b.db, "b2"), undefined);
  const id = "b1-j0";
  assert.ok(await t.la.transitions.start(id, "A", NOW + LEASE));
  assert.deepEqual(await t.la.transitions.fail(id, corrupt("broken"), "A"), {
    failed: true,
    paused: false,
    freeBytes: [id],
  });
  const [usage] = await t.b.db.select().from(dailyUsage);
  assert.deepEqual([usage?.used, usage?.refunded], [7, 1]);
  assert.equal((await findJob(t.b.db, id))?.charged, false);
  assert.equal((await findBatch(t.b.db, "b1"))?.status, "processing");
});

test("on sqld instance B adopts A's job only after A's lease lapses, completes it, and it is charged once", async (t) => {
  const { batchId, ids } = await t.admit(1);
  await t.la.transitions.start(ids[0]!, "A", NOW + LEASE);
  assert.deepEqual(await t.lb.leases.adopt("B", NOW + LEASE), []);
  t.clock.now = NOW + LEASE + 1;
  const adopted = await t.lb.leases.adopt("B", t.clock.now + LEASE);
  assert.deepEqual(adopted.map((r) => r.id), ids);
  assert.deepEqual(
    await t.la.transitions.complete(ids[0]!, "A", done, 60_000),
    { completed: null, freeBytes: [] },
    "A's late result is refused; the bytes are B's",
  );
  assert.ok(await t.lb.transitions.start(ids[0]!, "B", t.clock.now + LEASE));
  assert.equal((await t.lb.transitions.complete(ids[0]!, "B", done, 60_000)).completed?.status, "completed");
  assert.equal(await usedOn(t.a.db, t.userId, DAY), 1);
  assert.equal((await findBatch(t.a.db, batchId))?.status, "completed");
});

test("on sqld two instances adopting the same lapsed jobs at once split them: each job goes to exactly one", async (t) => {
  const { ids } = await t.admit(20, null);
  t.clock.now = NOW + LEASE + 1;
  const [ra, rb] = await Promise.all([
    t.la.leases.adopt("A2", t.clock.now + LEASE, { limit: 12 }),
    t.lb.leases.adopt("B", t.clock.now + LEASE, { limit: 12 }),
  ]);
  const got = [...ra, ...rb].map((r) => r.id).sort();
  assert.equal(new Set(got).size, got.length, "no job adopted twice");
  assert.ok(got.length >= 12 && got.length <= 20);
  for (const row of ra) assert.equal((await findJob(t.b.db, row.id))?.leaseOwner, "A2");
  for (const row of rb) assert.equal((await findJob(t.a.db, row.id))?.leaseOwner, "B");
  assert.ok(got.every((id) => ids.includes(id)));
});

test("on sqld two instances claiming from the shared queue at once: each job claimed once, the user's limit never passed", async (t) => {
  const { ids } = await t.admit(10, null);
  t.clock.now = NOW + LEASE + 1; // A's leases lapsed: every job is claimable
  assert.equal((await t.lb.queue.claimable(200)).length, 10);
  // Both instances try every job at once, with a per-user limit of 3.
  const results = await Promise.all(
    ids.flatMap((id) => [
      t.la.leases.claim(id, "A2", t.clock.now + LEASE, 3).then((row) => row && { id, owner: "A2" }),
      t.lb.leases.claim(id, "B", t.clock.now + LEASE, 3).then((row) => row && { id, owner: "B" }),
    ]),
  );
  const claimed = results.filter((r) => r !== null);
  assert.equal(claimed.length, 3, "the user's limit of 3 holds over both instances");
  assert.equal(new Set(claimed.map((r) => r.id)).size, 3, "no job claimed twice");
  assert.equal((await t.la.queue.heldPerUser([t.userId])).get(t.userId), 3);
  assert.equal((await t.lb.queue.claimable(200)).length, 7, "held jobs are not offered again");
  // One ends: a slot frees for either instance.
  const first = claimed[0]!;
  const lifecycle = first.owner === "A2" ? t.la : t.lb;
  assert.ok(await lifecycle.transitions.start(first.id, first.owner, t.clock.now + LEASE));
  assert.equal(
    (await lifecycle.transitions.complete(first.id, first.owner, done, 60_000)).completed?.status,
    "completed",
  );
  const next = (await t.lb.queue.claimable(200))[0]!;
  assert.ok(await t.lb.leases.claim(next.jobId, "B", t.clock.now + LEASE, 3));
  assert.equal(
    await t.la.leases.claim((await t.la.queue.claimable(200))[0]!.jobId, "A2", t.clock.now + LEASE, 3),
    null,
  );
});

/**
 * The scheduling policy end to end (DESIGN §5, ADR 023), two users side by side through the HTTP
 * API: on one instance, and on two instances pulling one shared queue. A free user's High batch
 * uploaded first delays another free user's single job by at most one job slot; a Premium job
 * uploaded last starts next; a paused batch is skipped.
 */
import assert from "node:assert/strict";
import { createTestApp, makePremium, peerInstance, signUp, type TestApp, upload } from "../setup/app-harness.ts";
import { type HeldCall, HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { CompressionService } from "../../server/services/compression/compression-service.ts";
import { noCompressor } from "../../server/services/compression/codec-compressor.ts";
import { MemoryStore } from "../../server/store/mod.ts";
import { QueueReads } from "../../server/services/lifecycle/queue-reads.ts";
import { jobs } from "../../db/schema.ts";
import { waitFor } from "../setup/wait-for.ts";

const files = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => taggedFile(`${prefix}${i}`));

/** Jobs started on any of `compressors`, in the order the test saw them start. */
function startLog(compressors: HeldCompressor[]) {
  const seen: HeldCall[] = [];
  const all = () => compressors.flatMap((c) => c.calls);
  return {
    /** Waits for exactly `count` more starts and answers their tags (in no order among themselves). */
    async next(count = 1): Promise<string[]> {
      const want = seen.length + count;
      await waitFor(() => all().length >= want, { message: () => `${want} jobs started (${all().length})` });
      const fresh = all().filter((c) => !seen.includes(c));
      seen.push(...fresh);
      return fresh.map((c) => c.tag).sort();
    },
    /** No job started beyond those seen (asserted once `inWork` has shown that nothing else can start). */
    none(): void {
      assert.deepEqual(all().filter((c) => !seen.includes(c)).map((c) => c.tag), [], "no other job started");
    },
    finish(tag: string): void {
      const call = seen.find((c) => c.tag === tag);
      if (!call) throw new Error(`${tag} has not started`);
      call.finish();
    },
  };
}

/**
 * Waits until exactly the jobs tagged `tags` are in work (the runs the test ended have ended), then
 * asserts from the app's state that every other unfinished job waits and none can start until the next
 * event (an upload, a run's end, a resume): "nothing else started" is read from state, not slept on.
 */
type InWork = (tags: string[]) => Promise<void>;

/** The unfinished jobs, each with its tag. */
async function unfinished(t: TestApp) {
  const rows = await t.db.select().from(jobs);
  return rows.filter((r) => r.status === "pending" || r.status === "processing")
    .map((r) => ({ ...r, tag: r.filename.replace(/\.jpg$/, "") }));
}

/**
 * One instance: its scheduler dispatches synchronously, on an enqueue and on a run's end, so once the
 * runs the test ended have left it, what it runs and holds queued is what it decided, until the next event.
 */
function inWorkOnOneInstance(t: TestApp): InWork {
  const s = t.compression.scheduler;
  return async (tags) => {
    await waitFor(() => s.runningCount === tags.length, {
      message: () => `${tags.length} jobs running (${s.runningCount})`,
    });
    const rows = await unfinished(t);
    assert.deepEqual(rows.filter((r) => s.isRunning(r.id)).map((r) => r.tag).sort(), tags, "the jobs running");
    const queued = new Set(s.queuedIds());
    const loose = rows.filter((r) => !s.isRunning(r.id) && !queued.has(r.id)).map((r) => r.tag);
    assert.deepEqual(loose, [], "every other unfinished job waits in the scheduler's queue");
  };
}

/**
 * Instances on a shared queue: a pull claims only while its instance has a free slot (it stops before
 * reading the queue otherwise), and only jobs the database offers. Once the runs the test ended have left
 * the instances, the leases say which jobs are in work; every other job is unclaimed, and if a slot is
 * free the database offers nothing, so no pull, now or later, can claim one until the next event.
 */
function inWorkOnSharedQueue(t: TestApp, instances: CompressionService[]): InWork {
  const queue = new QueueReads(t.db);
  const held = () => instances.reduce((n, s) => n + s.scheduler.runningCount + s.scheduler.queuedCount, 0);
  return async (tags) => {
    await waitFor(() => held() === tags.length, { message: () => `${tags.length} jobs in work (${held()})` });
    const rows = await unfinished(t);
    assert.deepEqual(rows.filter((r) => r.leaseOwner !== null).map((r) => r.tag).sort(), tags, "the jobs leased");
    if (instances.some((s) => s.scheduler.runningCount < s.scheduler.slots)) {
      assert.deepEqual(await queue.claimable(200), [], "a slot is free, and the queue offers nothing to claim");
    }
  };
}

/** The scenario, on an app whose workers are `compressors` (two slots in all). */
async function scenario(t: TestApp, compressors: HeldCompressor[], inWork: InWork) {
  const started = startLog(compressors);
  const ann = await signUp(t, "ann");
  const bob = await signUp(t, "bob");
  const pia = await signUp(t, "pia");
  await makePremium(t, "pia");

  // Ann's High batch of 10 comes first and fills both slots (a free user runs 2 at once).
  const annBatch = await (await upload(t, ann.cookie, files("a", 10), { priority: "high" })).json();
  assert.deepEqual(await started.next(2), ["a0", "a1"]);
  // Bob's single Normal job waits for one slot only: the first of Ann's jobs to end.
  assert.equal((await upload(t, bob.cookie, [taggedFile("b0")], { priority: "normal" })).status, 201);
  await inWork(["a0", "a1"]);
  started.none();
  started.finish("a0");
  assert.deepEqual(await started.next(), ["b0"], "Bob's job takes the first free slot, not Ann's High job");

  // Pia (Premium) uploads last; the next free slot is hers.
  await upload(t, pia.cookie, [taggedFile("p0")]);
  started.finish("a1");
  assert.deepEqual(await started.next(), ["p0"]);

  // Ann pauses her batch: her jobs wait; the slots go to Bob's next job, then stay free.
  const pause = await t.request(`/api/batches/${annBatch.batch.id}/pause`, {
    method: "POST",
    headers: { Cookie: ann.cookie },
  });
  assert.equal(pause.status, 200);
  await upload(t, bob.cookie, [taggedFile("b1")]);
  started.finish("b0");
  assert.deepEqual(await started.next(), ["b1"]);
  started.finish("p0");
  started.finish("b1");
  await inWork([]);
  started.none();

  // Resumed, Ann's batch takes both slots again.
  await t.request(`/api/batches/${annBatch.batch.id}/resume`, { method: "POST", headers: { Cookie: ann.cookie } });
  assert.deepEqual(await started.next(2), ["a2", "a3"]);
}

Deno.test("one instance: two free users share the slots; Premium goes next; a paused batch is skipped", async () => {
  const compressor = new HeldCompressor(2);
  const t = await createTestApp({ compressor });
  try {
    await scenario(t, [compressor], inWorkOnOneInstance(t));
  } finally {
    compressor.calls.forEach((c) => c.finish());
    await t.close();
  }
});

Deno.test("two instances on one shared queue: the same order", async () => {
  const store = new MemoryStore(); // shared by every instance, as S3 would be
  const t = await createTestApp({ compressor: noCompressor(), store, sharedQueue: true });
  const held = [new HeldCompressor(1), new HeldCompressor(1)];
  const instances = held.map((compressor) => peerInstance(t, compressor, store));
  try {
    await scenario(t, held, inWorkOnSharedQueue(t, instances));
  } finally {
    held.forEach((c) => c.calls.forEach((call) => call.finish()));
    for (const s of instances) await s.drain(100);
    await t.close();
  }
});

/**
 * The wait the issue asks for, in time: every job takes JOB_MS; Bob uploads one job just after
 * Ann's 10-job High batch. His job must start within about one job slot, where a policy ranking
 * Ann's High priority over Bob would keep him waiting for all ten.
 */
Deno.test("Bob's wait behind Ann's High batch is at most one job slot", async () => {
  const JOB_MS = 150;
  const compressor = new HeldCompressor(2);
  const t = await createTestApp({ compressor });
  const startedAt = new Map<HeldCall, number>();
  const finisher = setInterval(() => {
    for (const call of compressor.calls) {
      const at = startedAt.get(call) ?? (startedAt.set(call, Date.now()), Date.now());
      if (Date.now() - at >= JOB_MS) call.finish();
    }
  }, 5);
  try {
    const ann = await signUp(t, "ann");
    const bob = await signUp(t, "bob");
    await upload(t, ann.cookie, files("a", 10), { priority: "high" });
    await compressor.started(2);
    const uploadedAt = Date.now();
    await upload(t, bob.cookie, [taggedFile("b0")]);
    await waitFor(() => compressor.calls.some((c) => c.tag === "b0"), { message: "Bob's job started" });
    const bobStart = startedAt.get(compressor.calls.find((c) => c.tag === "b0")!) ?? Date.now();
    // Calls are in start order: Ann's first two were running when Bob uploaded.
    const annBefore = compressor.calls.findIndex((c) => c.tag === "b0") - 2;
    console.log(
      `two-user wait: Bob waited ${bobStart - uploadedAt} ms (job = ${JOB_MS} ms), ` +
        `${annBefore} more of Ann's jobs started before his`,
    );
    assert.equal(annBefore, 0, "no job of Ann's started between Bob's upload and his start");
  } finally {
    clearInterval(finisher);
    compressor.calls.forEach((c) => c.finish());
    await t.close();
  }
});

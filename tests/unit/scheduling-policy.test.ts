import assert from "node:assert/strict";
import {
  mayStart,
  nextJob,
  nextJobs,
  type QueuedJob,
  type QueueState,
  runsBefore,
} from "../../server/services/scheduling/policy.ts";

let order = 0;
/** A job of user `userId` (free, normal priority, limit 2, in batch `b<userId>`), unless told otherwise. */
const job = (jobId: string, userId: number, over: Partial<QueuedJob> = {}): QueuedJob => ({
  jobId,
  userId,
  batchId: `b${userId}`,
  planPriority: 0,
  batchPriority: 1,
  userLimit: 2,
  order: ++order,
  pixels: 1e6,
  bytes: 0,
  perPixel: 44,
  ...over,
});

const state = (over: Partial<QueueState> = {}): QueueState => ({
  inWork: new Map(),
  lastServed: new Map(),
  paused: new Set(),
  ...over,
});

const ids = (jobs: QueuedJob[]) => jobs.map((j) => j.jobId);

Deno.test("Premium work goes before free work, whatever came first or its batch priority", () => {
  const free = job("free-high", 1, { batchPriority: 2 });
  const premium = job("premium-low", 2, { planPriority: 1, batchPriority: 0 });
  assert.equal(nextJob([free, premium], state())?.jobId, "premium-low");
  // Even when the Premium user has more in work and was served last.
  const busy = state({ inWork: new Map([[2, 3]]), lastServed: new Map([[2, 9], [1, 1]]) });
  assert.equal(nextJob([free, { ...premium, userLimit: 10 }], busy)?.jobId, "premium-low");
});

Deno.test("between users of one plan, a batch's High priority does not jump another user's work", () => {
  const high = job("a-high", 1, { batchPriority: 2 });
  const normal = job("b-normal", 2, { batchPriority: 1 });
  // User 1 already has a job in work: user 2 goes first although user 1's batch is High.
  assert.equal(nextJob([high, normal], state({ inWork: new Map([[1, 1]]) }))?.jobId, "b-normal");
  assert.equal(runsBefore(normal, high, state({ inWork: new Map([[1, 1]]) })), true);
});

Deno.test("round-robin: the user with fewer jobs in work first, then the user served longest ago, then the older job", () => {
  const a = job("a", 1), b = job("b", 2);
  assert.equal(nextJob([a, b], state({ inWork: new Map([[1, 1]]) }))?.jobId, "b");
  assert.equal(nextJob([a, b], state({ inWork: new Map([[2, 1]]) }))?.jobId, "a");
  assert.equal(nextJob([a, b], state({ lastServed: new Map([[1, 5], [2, 3]]) }))?.jobId, "b");
  assert.equal(nextJob([a, b], state({ lastServed: new Map([[1, 3]]) }))?.jobId, "b", "never served goes first");
  assert.equal(nextJob([b, a], state())?.jobId, "a", "all else equal, the job admitted first");
});

Deno.test("among one user's jobs: batch priority, then the batch admitted first, then a batch's larger image first", () => {
  const low = job("low", 1, { batchId: "x", batchPriority: 0 });
  const high = job("high", 1, { batchId: "y", batchPriority: 2 });
  assert.equal(nextJob([low, high], state())?.jobId, "high");
  const first = job("first", 1, { batchId: "x" });
  const second = job("second", 1, { batchId: "y", pixels: 9e6 });
  assert.equal(nextJob([second, first], state())?.jobId, "first", "larger images first only within a batch");
  const small = job("small", 1, { batchId: "x", pixels: 1e6 });
  const big = job("big", 1, { batchId: "x", pixels: 4e6 });
  assert.equal(nextJob([small, big], state())?.jobId, "big");
});

Deno.test("a user at their concurrency waits, and a paused batch is skipped", () => {
  const a = job("a", 1, { userLimit: 2 });
  assert.equal(mayStart(a, state({ inWork: new Map([[1, 1]]) })), true);
  assert.equal(mayStart(a, state({ inWork: new Map([[1, 2]]) })), false);
  assert.equal(nextJob([a], state({ inWork: new Map([[1, 2]]) })), undefined);
  const paused = job("paused", 2, { planPriority: 1, batchId: "p" });
  assert.equal(mayStart(paused, state({ paused: new Set(["p"]) })), false);
  assert.equal(
    nextJob([paused, a], state({ paused: new Set(["p"]) }))?.jobId,
    "a",
    "the Premium job's batch is paused",
  );
  assert.equal(nextJob([a], state(), () => false), undefined, "the caller's filter (e.g. the memory budget)");
});

Deno.test("nextJobs: a free user's High 10-job batch and another free user's single job share the slots", () => {
  const batch = Array.from({ length: 10 }, (_, i) => job(`a${i}`, 1, { batchPriority: 2 }));
  const single = job("b0", 2);
  // Two slots, nothing in work: one of each user, user 1 first (admitted first).
  assert.deepEqual(ids(nextJobs([...batch, single], state(), 2)), ["a0", "b0"]);
  // User 1 took both slots before user 2 came: the next free slot is user 2's.
  assert.deepEqual(ids(nextJobs([...batch.slice(2), single], state({ inWork: new Map([[1, 1]]) }), 1)), ["b0"]);
});

Deno.test("nextJobs: a Premium job admitted last starts next; users alternate; limits hold", () => {
  const queue = [
    job("a0", 1),
    job("a1", 1),
    job("a2", 1),
    job("b0", 2),
    job("b1", 2),
    job("p0", 3, { planPriority: 1 }),
  ];
  assert.deepEqual(ids(nextJobs(queue, state(), 6)), ["p0", "a0", "b0", "a1", "b1"], "limit 2 each: a2 waits");
});

/** Every order nextJobs gives keeps the rule's invariants, on random queues. */
Deno.test("nextJobs on random queues: plan first, fair shares, own priorities, limits and pauses", () => {
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (let round = 0; round < 300; round++) {
    const users = 1 + rand(4);
    const queue: QueuedJob[] = [];
    for (let i = 0; i < 2 + rand(14); i++) {
      const userId = 1 + rand(users);
      queue.push(job(`j${i}`, userId, {
        planPriority: userId === 1 ? 1 : 0,
        batchId: `u${userId}b${rand(2)}`,
        batchPriority: rand(3),
        userLimit: 1 + rand(3),
        pixels: (1 + rand(4)) * 1e6,
      }));
    }
    const paused = new Set(rand(3) === 0 ? [`u2b0`] : []);
    const inWork = new Map([[1 + rand(users), rand(2)]]);
    const picked = nextJobs(queue, state({ inWork, paused }), queue.length);
    const started = new Map(inWork);
    let freeSeen = false;
    for (const [i, p] of picked.entries()) {
      assert.ok(!paused.has(p.batchId), "a paused batch never starts");
      const n = (started.get(p.userId) ?? 0) + 1;
      assert.ok(n <= p.userLimit, "no user passes their concurrency");
      started.set(p.userId, n);
      if (p.planPriority === 0) freeSeen = true;
      else assert.ok(!freeSeen, "no Premium job after a free one");
      // Among one user's picks: a later pick never has a higher batch priority than an earlier one.
      for (const q of picked.slice(0, i)) {
        if (q.userId === p.userId) assert.ok(q.batchPriority >= p.batchPriority, "a user's own priority order");
      }
    }
    // What was left could not start: its user is at the limit or its batch is paused.
    for (const left of queue.filter((j) => !picked.includes(j))) {
      const blocked = paused.has(left.batchId) || (started.get(left.userId) ?? 0) >= left.userLimit;
      assert.ok(blocked, `${left.jobId} could have started`);
    }
  }
});

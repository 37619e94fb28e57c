import assert from "node:assert/strict";
import { Scheduler } from "../../server/services/compression/scheduler.ts";
import type { QueuedJob } from "../../server/services/scheduling/policy.ts";
import { waitFor } from "../setup/wait-for.ts";

/**
 * A scheduler whose runs finish when the test says so; `started` lists job ids
 * in start order. Its budget is in megapixels: `room` of them, a job costs its
 * size; without `room`, no budget.
 */
function harness(slots: number, room?: number | (() => number)) {
  const started: string[] = [];
  /** The slots each started job was granted. */
  const lanes = new Map<string, number>();
  const finishers = new Map<string, () => void>();
  const budget = room === undefined
    ? undefined
    : { room: typeof room === "number" ? () => room : room, cost: (job: { pixels: number }) => job.pixels / 1e6 };
  const scheduler = new Scheduler(slots, (job, _signal, granted) => {
    started.push(job.jobId);
    lanes.set(job.jobId, granted);
    return new Promise<void>((resolve) => finishers.set(job.jobId, resolve));
  }, budget);
  const job = (jobId: string, megapixels: number, batchId = "b", jobLanes?: number): QueuedJob => ({
    jobId,
    userId: 1,
    batchId,
    planPriority: 1,
    batchPriority: 1,
    userLimit: 10,
    order: scheduler.nextOrder(),
    pixels: megapixels * 1e6,
    bytes: 0,
    perPixel: 44,
    lanes: jobLanes,
  });
  /**
   * Calls `end` (which settles a run) and resolves once the scheduler has handled that end: its
   * `onSlotFree` is called after the slot is freed and the next work dispatched.
   */
  const ending = (end: () => void) => {
    const handled = new Promise<void>((resolve) => (scheduler.onSlotFree = resolve));
    end();
    return handled;
  };
  const finish = (jobId: string) => ending(finishers.get(jobId)!);
  return { scheduler, started, lanes, job, finish, ending };
}

Deno.test("a job over the budget waits while a smaller one behind it takes the free slot", async () => {
  const { scheduler, started, job, finish } = harness(2, 24);
  scheduler.enqueue([job("big1", 20), job("big2", 18), job("small", 4)]);
  // big2 does not fit beside big1 (38 MP > 24 MP): the slot goes to the small one.
  assert.deepEqual(started, ["big1", "small"]);
  await finish("small");
  assert.deepEqual(started, ["big1", "small"], "big2 still does not fit, and nothing else is queued");
  await finish("big1");
  assert.deepEqual(started, ["big1", "small", "big2"]);
});

Deno.test("a web set alone takes every free slot it can use; beside other work it takes one", async () => {
  const { scheduler, started, lanes, job, finish } = harness(2, 24);
  scheduler.enqueue([job("set", 13, "b", 2)]);
  assert.deepEqual([started, lanes.get("set"), scheduler.slotsInUse], [["set"], 2, 2]);
  // It holds both slots: a job arriving meanwhile waits for it, even one that would fit the budget.
  scheduler.enqueue([job("small", 1)]);
  assert.deepEqual(started, ["set"]);
  await finish("set");
  assert.deepEqual([started, lanes.get("small")], [["set", "small"], 1]);
  // A set arriving while another job runs takes one slot, as does one that has company in the queue.
  scheduler.enqueue([job("set2", 13, "b", 2)]);
  assert.deepEqual([started, lanes.get("set2"), scheduler.slotsInUse], [["set", "small", "set2"], 1, 2]);
  await finish("small");
  await finish("set2");
  scheduler.enqueue([job("set3", 4, "b", 2), job("set4", 4, "b", 2)]);
  assert.deepEqual([lanes.get("set3"), lanes.get("set4")], [1, 1]);
});

Deno.test("a web set on a one-slot scheduler takes its one slot", () => {
  const { scheduler, lanes, job } = harness(1);
  scheduler.enqueue([job("set", 13, "b", 2)]);
  assert.equal(lanes.get("set"), 1);
});

Deno.test("an image alone always runs, even over the budget", () => {
  const { scheduler, started, job } = harness(2, 24);
  scheduler.enqueue([job("huge", 50)]);
  assert.deepEqual(started, ["huge"]);
});

Deno.test("the job first in line is passed over at most 4 times, then waits for the budget alone", async () => {
  const { scheduler, started, job, finish } = harness(2, 24);
  scheduler.enqueue([job("big1", 20), job("big2", 18)]);
  scheduler.enqueue(["s1", "s2", "s3", "s4", "s5", "s6"].map((id) => job(id, 2)));
  assert.deepEqual(started, ["big1", "s1"]);
  for (const id of ["s1", "s2", "s3", "s4"]) await finish(id);
  // s1..s4 passed big2 over; after the fourth pass the slot waits for big2.
  assert.deepEqual(started, ["big1", "s1", "s2", "s3", "s4"]);
  await finish("big1");
  assert.deepEqual(started, ["big1", "s1", "s2", "s3", "s4", "big2", "s5"]);
});

Deno.test("without a budget the scheduler fills every slot in order", () => {
  const { scheduler, started, job } = harness(2);
  scheduler.enqueue([job("a", 20), job("b", 18), job("c", 4)]);
  assert.deepEqual(started, ["a", "b"]);
});

Deno.test("less room (more bytes held elsewhere) means fewer jobs side by side", async () => {
  let room = 24;
  const { scheduler, started, job, finish } = harness(2, () => room);
  scheduler.enqueue([job("a", 10), job("b", 10), job("c", 10), job("d", 10)]);
  assert.deepEqual(started, ["a", "b"]);
  room = 15; // e.g. a large upload now held in memory
  await finish("a");
  assert.deepEqual(started, ["a", "b"], "c does not fit beside b any more");
  await finish("b");
  assert.deepEqual(started, ["a", "b", "c"]);
});

Deno.test("a batch's larger images go first; a user's batches keep their order", async () => {
  const { scheduler, started, job, finish } = harness(1);
  scheduler.enqueue([job("small", 2, "first"), job("big", 20, "first"), job("mid", 8, "first")]);
  scheduler.enqueue([job("later-huge", 40, "second"), job("later-tiny", 1, "second")]);
  for (const id of ["big", "mid", "small", "later-huge"]) await finish(id);
  assert.deepEqual(started, ["big", "mid", "small", "later-huge", "later-tiny"]);
});

Deno.test("big images first let small ones fill the other worker beside each big one", async () => {
  // Uploaded small first, as the corpus is: in admission order the two big
  // images would be left to the end, one at a time, with a worker idle.
  const { scheduler, started, job, finish } = harness(2, 30);
  scheduler.enqueue([job("s1", 4), job("s2", 4), job("big1", 20), job("big2", 18)]);
  assert.deepEqual(started, ["big1", "s1"], "big2 does not fit beside big1");
  await finish("s1");
  assert.deepEqual(started, ["big1", "s1", "s2"]);
  await finish("big1");
  assert.deepEqual(started, ["big1", "s1", "s2", "big2"]);
});

/** A background task that records its start and finishes when the test says so. */
function backgroundTask(started: string[], finishers: Map<string, () => void>, id: string, megapixels = 1) {
  return {
    id,
    pixels: megapixels * 1e6,
    perPixel: 32,
    run: () => {
      started.push(id);
      return new Promise<void>((resolve) => finishers.set(id, resolve));
    },
  };
}

Deno.test("background work waits for jobs, fills idle slots, and yields to jobs that arrive later", async () => {
  const { scheduler, started, job, finish, ending } = harness(2);
  const finishers = new Map<string, () => void>();
  scheduler.enqueue([job("a", 4), job("b", 4), job("c", 4)]);
  scheduler.enqueueBackground(backgroundTask(started, finishers, "score:a"));
  assert.deepEqual(started, ["a", "b"], "both slots go to jobs");
  await finish("a");
  assert.deepEqual(started, ["a", "b", "c"], "a queued job goes before the background task");
  await finish("b");
  assert.deepEqual(started, ["a", "b", "c", "score:a"], "the idle slot takes the background task");
  scheduler.enqueue([job("d", 4)]);
  assert.deepEqual(started, ["a", "b", "c", "score:a"], "both slots are busy");
  scheduler.enqueueBackground(backgroundTask(started, finishers, "score:b"));
  await ending(finishers.get("score:a")!);
  assert.deepEqual(started, ["a", "b", "c", "score:a", "d"], "the job that came later runs first");
  assert.equal(scheduler.backgroundCount, 1);
});

Deno.test("a background task is queued once, and draining drops the queued ones", async () => {
  const { scheduler, started } = harness(1);
  const finishers = new Map<string, () => void>();
  scheduler.enqueueBackground(backgroundTask(started, finishers, "score:a"));
  scheduler.enqueueBackground(backgroundTask(started, finishers, "score:a"));
  scheduler.enqueueBackground(backgroundTask(started, finishers, "score:b"));
  assert.deepEqual(started, ["score:a"]);
  assert.equal(scheduler.backgroundCount, 2, "the duplicate was not added");
  const drained = scheduler.drain(1000);
  finishers.get("score:a")!();
  await drained;
  assert.deepEqual(started, ["score:a"], "score:b never started");
  assert.equal(scheduler.backgroundCount, 0);
});

Deno.test("background work does not take the memory a waiting job needs", async () => {
  const { scheduler, started, job, finish } = harness(2, 24);
  const finishers = new Map<string, () => void>();
  scheduler.enqueue([job("big1", 20), job("big2", 18)]);
  scheduler.enqueueBackground(backgroundTask(started, finishers, "score:x", 2));
  // big2 waits for the budget beside big1; the background task must not take its place.
  assert.deepEqual(started, ["big1"]);
  await finish("big1");
  assert.deepEqual(started, ["big1", "big2", "score:x"], "then both fit (18 + 2 MP)");
});

Deno.test("with a background delay, a slot freed by a job waits for the shared queue before taking a score", async () => {
  // The Scheduler reads Date.now() (no clock to fake): the delay is measured, from outside it.
  const DELAY = 60;
  const { scheduler, started, job, finish } = harness(1);
  const finishers = new Map<string, () => void>();
  scheduler.backgroundDelayMs = DELAY;
  scheduler.enqueue([job("a", 4)]);
  const task = backgroundTask(started, finishers, "score:a");
  let scoreStartedAt = NaN;
  scheduler.enqueueBackground({
    ...task,
    run: () => {
      scoreStartedAt = performance.now();
      return task.run();
    },
  });
  await finish("a");
  assert.deepEqual(started, ["a"], "the score waits: the puller may claim a job meanwhile");
  // The puller claims a job within the delay: it takes the slot, the score still waits.
  scheduler.enqueue([job("b", 4)]);
  assert.deepEqual(started, ["a", "b"]);
  await finish("b");
  const freedAt = performance.now(); // just after b's end, which the delay counts from
  await waitFor(() => started.includes("score:a"), { timeoutMs: 2000, message: "the score starting after the delay" });
  assert.deepEqual(started, ["a", "b", "score:a"], "nothing claimed within the delay: the score runs");
  // Measured from just after b's end, so never more than the real wait; the scheduler's Date.now() counts
  // whole milliseconds, so the real wait may itself be up to 1 ms short of the delay.
  const waited = scoreStartedAt - freedAt;
  assert.ok(waited >= DELAY - 2, `the score started ${waited.toFixed(1)} ms after b ended, not ${DELAY}`);
});

Deno.test("a job handed a running background task's work runs at once in its slot, whatever else waits", async () => {
  const { scheduler, started, job, finish, ending } = harness(2);
  const finishers = new Map<string, () => void>();
  scheduler.enqueueBackground(backgroundTask(started, finishers, "head:1"));
  scheduler.enqueueBackground(backgroundTask(started, finishers, "head:2"));
  assert.deepEqual(started, ["head:1", "head:2"], "idle slots take both");
  scheduler.handOver("head:2", "h2");
  scheduler.enqueue([job("big", 20), job("h2", 1), job("other", 4)]);
  // Both slots are busy with background work, yet h2 starts: it is head:2's work, in head:2's slot.
  assert.deepEqual(started, ["head:1", "head:2", "h2"]);
  assert.equal(scheduler.slotsInUse, 1);
  assert.deepEqual(scheduler.runningBackgroundIds(), ["head:1"], "head:2's slot is the job's now");
  await finish("h2");
  assert.deepEqual(started, ["head:1", "head:2", "h2", "big"], "the job's end frees one slot: the next job");
  await ending(finishers.get("head:1")!);
  assert.deepEqual(started, ["head:1", "head:2", "h2", "big", "other"]);
});

Deno.test("background work for a user runs at most the user's limit at once; a dropped task never starts", async () => {
  const { scheduler, started } = harness(3);
  const finishers = new Map<string, () => void>();
  const forUser = (id: string) => ({ ...backgroundTask(started, finishers, id), user: { id: 7, limit: 1 } });
  scheduler.enqueueBackground(forUser("head:1"));
  scheduler.enqueueBackground(forUser("head:2"));
  scheduler.enqueueBackground(forUser("head:3"));
  scheduler.enqueueBackground(backgroundTask(started, finishers, "score:x"));
  assert.deepEqual(started, ["head:1", "score:x"], "the user's second waits; work of no user goes past it");
  scheduler.dropBackground("head:2");
  await new Promise<void>((resolve) => {
    scheduler.onSlotFree = resolve;
    finishers.get("head:1")!();
  });
  assert.deepEqual(started, ["head:1", "score:x", "head:3"], "head:2 was dropped");
  assert.equal(scheduler.backgroundCount, 2);
});

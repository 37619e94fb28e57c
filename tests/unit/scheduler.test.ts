import assert from "node:assert/strict";
import { type QueuedJob, Scheduler } from "../../server/services/compression/scheduler.ts";

/** A scheduler whose runs finish when the test says so; `started` lists job ids in start order. */
function harness(slots: number, pixelBudget: number) {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const scheduler = new Scheduler(slots, (job) => {
    started.push(job.jobId);
    return new Promise<void>((resolve) => finishers.set(job.jobId, resolve));
  }, pixelBudget);
  const job = (jobId: string, megapixels: number): QueuedJob => ({
    jobId,
    userId: 1,
    batchId: "b",
    planPriority: 1,
    batchPriority: 1,
    userLimit: 10,
    order: scheduler.nextOrder(),
    pixels: megapixels * 1e6,
  });
  const finish = async (jobId: string) => {
    finishers.get(jobId)!();
    // Let the runner's finally() dispatch the next job.
    await new Promise((r) => setTimeout(r, 0));
  };
  return { scheduler, started, job, finish };
}

Deno.test("a job over the pixel budget waits while a smaller one behind it takes the free slot", async () => {
  const { scheduler, started, job, finish } = harness(2, 24e6);
  scheduler.enqueue([job("big1", 20), job("big2", 18), job("small", 4)]);
  // big2 does not fit beside big1 (38 MP > 24 MP): the slot goes to the small one.
  assert.deepEqual(started, ["big1", "small"]);
  await finish("small");
  assert.deepEqual(started, ["big1", "small"], "big2 still does not fit, and nothing else is queued");
  await finish("big1");
  assert.deepEqual(started, ["big1", "small", "big2"]);
});

Deno.test("an image alone always runs, even over the pixel budget", () => {
  const { scheduler, started, job } = harness(2, 24e6);
  scheduler.enqueue([job("huge", 50)]);
  assert.deepEqual(started, ["huge"]);
});

Deno.test("the job first in line is passed over at most 4 times, then waits for the budget alone", async () => {
  const { scheduler, started, job, finish } = harness(2, 24e6);
  scheduler.enqueue([job("big1", 20), job("big2", 18)]);
  scheduler.enqueue(["s1", "s2", "s3", "s4", "s5", "s6"].map((id) => job(id, 2)));
  assert.deepEqual(started, ["big1", "s1"]);
  for (const id of ["s1", "s2", "s3", "s4"]) await finish(id);
  // s1..s4 passed big2 over; after the fourth pass the slot waits for big2.
  assert.deepEqual(started, ["big1", "s1", "s2", "s3", "s4"]);
  await finish("big1");
  assert.deepEqual(started, ["big1", "s1", "s2", "s3", "s4", "big2", "s5"]);
});

Deno.test("without a pixel budget the scheduler fills every slot in order", () => {
  const { scheduler, started, job } = harness(2, Infinity);
  scheduler.enqueue([job("a", 20), job("b", 18), job("c", 4)]);
  assert.deepEqual(started, ["a", "b"]);
});

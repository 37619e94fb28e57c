import assert from "node:assert/strict";
import { createTrimmer } from "../../server/malloc-trim.ts";
import { inFreshProcess } from "../setup/in-fresh-process.ts";

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("the trimmer runs at once, then at most once per interval, and never two at a time", async () => {
  let clock = 0;
  let runs = 0;
  let release: (() => void) | null = null;
  const trimmer = createTrimmer({
    trim: () => {
      runs++;
      return new Promise<void>((resolve) => release = resolve);
    },
    minIntervalMs: 100,
    now: () => clock,
  });
  try {
    trimmer.soon();
    trimmer.soon();
    await wait(0);
    assert.equal(runs, 1, "the first comes at once; calls before it runs are one trim");
    trimmer.soon();
    clock = 500;
    await wait(20);
    assert.equal(runs, 1, "a call during a trim waits for it");
    release!();
    await wait(20);
    assert.equal(runs, 2, "and runs once it has ended, the interval having passed");
    release!();
    clock = 540; // 40 ms after the last: due 60 ms from now
    trimmer.soon();
    await wait(0);
    assert.equal(runs, 2, "not again within the interval");
    await wait(120);
    assert.equal(runs, 3, "due once the interval has passed");
    release!();
  } finally {
    trimmer.close();
  }
});

Deno.test("a trim hands freed but fragmented malloc memory back to the system", async () => {
  if (Deno.build.os !== "linux") return;
  const { held, freed, trimmed, kept } = await inFreshProcess<
    { held: number; freed: number; trimmed: number; kept: number }
  >(
    new URL("./malloc-trim-scenario.ts", import.meta.url),
  );
  assert.equal(kept, 640);
  assert.ok(held - freed < 32, `61 MB freed: ${held - freed} MB went back by itself`);
  assert.ok(freed - trimmed > 32, `the trim gave back ${freed - trimmed} MB`);
});

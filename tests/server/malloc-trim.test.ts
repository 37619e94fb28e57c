import assert from "node:assert/strict";
import { createTrimmer } from "../../server/malloc-trim.ts";
import { openMallocTrim } from "../../codecs/libc.ts";
import { fullCollection } from "../../codecs/collect-garbage.ts";

const MB = 2 ** 20;
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

Deno.test("a trim hands freed but fragmented malloc memory back to the system", async (t) => {
  const libc = openMallocTrim();
  if (Deno.build.os !== "linux") return;
  assert.ok(libc, "glibc's malloc_trim loads on Linux");
  const collect = fullCollection();
  if (!collect) throw new Error("V8's gc is not available here");
  const rss = () => Deno.memoryUsage().rss;
  try {
    // Earlier tests' garbage out of the way first, so that the figures below are this test's own.
    collect();
    await wait(200);
    await libc.trim();
    // Blocks kept between larger ones dropped: the dropped ones' room is free but holed, so free() keeps it. (Kept
    // blocks of 64 bytes came from malloc's small bins, elsewhere, in 3 runs of 10: the dropped ones then lay
    // together and glibc gave them back by itself.)
    const kept: Blob[] = [];
    let dropped: Blob[] = [];
    for (let i = 0; i < 640; i++) {
      dropped.push(new Blob([new Uint8Array(100_000).fill(i)]));
      kept.push(new Blob([new Uint8Array(4096).fill(i)]));
    }
    const held = rss();
    dropped = [];
    collect();
    await wait(200); // the Blobs' parts go in their finalizers, after the collection
    const freed = rss();
    await libc.trim();
    const trimmed = rss();
    await t.step("the freed room stayed resident until the trim", () => {
      assert.ok(held - freed < 32 * MB, `freeing alone gave back ${(held - freed) / MB} MB`);
      assert.ok(freed - trimmed > 32 * MB, `the trim gave back ${(freed - trimmed) / MB} MB of about 61`);
    });
    assert.equal(kept.length, 640);
  } finally {
    libc.close();
  }
});

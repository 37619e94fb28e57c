import assert from "node:assert/strict";
import { CodecError, type CodecErrorCode, createCodecPool } from "../../codecs/mod.ts";
import { returnFreedMemory } from "../../codecs/libc.ts";
import { CRASHING_HOST_URL, CRASHING_WORKER_URL, crashingInput, crashTheHostWorkers } from "../setup/pool-faults.ts";
import { encodeJpegPixels } from "../../codecs/jpeg/encode.ts";
import { mozJpegOptions } from "../../codecs/jpeg/options.ts";
import type { CompressStage } from "../../codecs/types.ts";
import { fixture, settings } from "./helpers.ts";
import { waitFor } from "../setup/wait-for.ts";

/**
 * Checks how a job failed. Call it as the job is made (or gather every job's check in one Promise.all), never
 * after awaiting something else: a job that fails meanwhile would be a rejection nobody handles, which fails the
 * whole module instead of the test.
 */
async function rejectsWith(promise: Promise<unknown>, code: CodecErrorCode, message?: RegExp) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof CodecError, String(error));
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}

Deno.test("pool fails each broken input with a clear error and then serves the next job", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10 });
  try {
    const cases: [string, CodecErrorCode, RegExp][] = [
      ["empty.jpg", "unsupported_format", /^The file is empty$/],
      ["png-renamed.jpg", "unsupported_format", /^The file is not a JPEG image \(it looks like a PNG image\)$/],
      ["cmyk.jpg", "unsupported_format", /^The image uses CMYK colour/],
      ["truncated.jpg", "corrupt_image", /^Cannot decode the image: the file is truncated inside its image data$/],
      ["header-only.jpg", "corrupt_image", /^Cannot decode the image: the file ends before its image data$/],
      ["corrupt-scan.jpg", "corrupt_image", /^Cannot decode the image: /],
      ["huge-dimensions.jpg", "too_many_pixels", /^The image is 60000×60000 \(3600\.0 MP\); the limit is 50 MP$/],
    ];
    for (const [name, code, message] of cases) {
      await rejectsWith(pool.compress(await fixture(name), settings()), code, message);
      const next = await pool.compress(await fixture("orientation-1.jpg"), settings());
      assert.equal(next.width, 64, `job after ${name}`);
    }
  } finally {
    await pool.close();
  }
});

Deno.test("pool enforces a per-call pixel limit for plan limits", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10, maxPixels: 100e6 });
  try {
    await rejectsWith(
      pool.compress(await fixture("base.jpg"), settings(), { maxPixels: 10_000 }),
      "too_many_pixels",
      /^The image is 128×96 \(0\.0 MP\); the limit is 0\.0 MP$/,
    );
  } finally {
    await pool.close();
  }
});

Deno.test("pool transfers the input buffer and reports progress by stage", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10 });
  try {
    const input = await fixture("base.jpg");
    const stages: CompressStage[] = [];
    const result = await pool.compress(input, settings({ quality: 60 }), { onProgress: (s) => stages.push(s) });
    assert.equal(input.buffer.byteLength, 0, "input detached, not copied");
    assert.ok(result.compressedSize < result.originalSize);
    for (const stage of ["queued", "decode", "encode", "done"] as const) assert.ok(stages.includes(stage), stage);
    assert.ok(result.timings.totalMs >= result.timings.encodeMs);
  } finally {
    await pool.close();
  }
});

Deno.test("pool refuses work beyond its queue with queue_full", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 1 });
  try {
    const inputs = await Promise.all([0, 1, 2].map(() => fixture("base.jpg")));
    const accepted = Promise.all([pool.compress(inputs[0]!, settings()), pool.compress(inputs[1]!, settings())]);
    assert.deepEqual(pool.stats(), { size: 1, busy: 1, queued: 1, replaced: 0 });
    await Promise.all([rejectsWith(pool.compress(inputs[2]!, settings()), "queue_full"), accepted]);
  } finally {
    await pool.close();
  }
});

Deno.test("pool runs higher priority first and keeps FIFO among equals", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10 });
  try {
    const order: string[] = [];
    // Read every input first, so all three are queued while the first job holds the worker.
    const inputs = await Promise.all([0, 1, 2].map(() => fixture("orientation-1.jpg")));
    const job = (label: string, priority: number, bytes: Uint8Array) =>
      pool.compress(bytes, settings(), { priority }).then(() => void order.push(label));
    const first = pool.compress(await fixture("base.jpg"), settings()); // occupies the worker
    await Promise.all([first, job("low-1", 0, inputs[0]!), job("low-2", 0, inputs[1]!), job("high", 5, inputs[2]!)]);
    assert.deepEqual(order, ["high", "low-1", "low-2"]);
  } finally {
    await pool.close();
  }
});

Deno.test("pool times out a job, replaces its worker and serves the next job", async () => {
  // A job of a second or more against a limit of 1 ms, which counts from when the worker takes the job (the
  // worker's start-up, however slow, is not the job's): it times out on a quiet machine and on a busy one.
  const slow = await slowJpeg();
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 1, maxQueue: 10 });
  try {
    await rejectsWith(pool.compress(slow, settings()), "timeout", /^The image took longer than 0\.0 s to process$/);
    assert.deepEqual(pool.stats(), { size: 1, busy: 0, queued: 0, replaced: 1 });
  } finally {
    await pool.close();
  }
});

Deno.test("a job's own time limit replaces the pool's (a web set's is longer; here a shorter one times out)", async () => {
  const slow = await slowJpeg();
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 600_000, maxQueue: 10 });
  try {
    await rejectsWith(
      pool.compress(slow, settings(), { timeoutMs: 1 }),
      "timeout",
      /^The image took longer than 0\.0 s to process$/,
    );
    const ok = await pool.compress(await fixture("base.jpg"), settings());
    assert.ok(ok.compressedSize > 0, "the pool's own limit for the next job");
  } finally {
    await pool.close();
  }
});

Deno.test("pool cancels running and queued jobs through AbortSignal", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10 });
  try {
    const running = new AbortController();
    const queued = new AbortController();
    const [first, second] = await Promise.all([fixture("base.jpg"), fixture("base.jpg")]);
    const a = rejectsWith(
      pool.compress(first, settings(), { signal: running.signal }),
      "aborted",
      /^The compression was cancelled$/,
    );
    const b = rejectsWith(pool.compress(second, settings(), { signal: queued.signal }), "aborted");
    queued.abort();
    running.abort();
    await Promise.all([a, b]);
    const next = await pool.compress(await fixture("orientation-1.jpg"), settings());
    assert.equal(next.width, 64);
  } finally {
    await pool.close();
  }
});

Deno.test("a crash in one worker fails only its job, and a new worker takes its place", async () => {
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 30_000, maxQueue: 10, workerUrl: CRASHING_WORKER_URL });
  try {
    const input = await fixture("orientation-1.jpg");
    const [, healthy] = await Promise.all([
      rejectsWith(
        pool.compress(crashingInput(), settings()),
        "worker_crashed",
        /^The codec worker crashed while processing the image$/,
      ),
      pool.compress(input, settings()),
    ]);
    assert.equal(healthy.width, 64);
    const after = await Promise.all(
      [1, 2, 3].map(async () => pool.compress(await fixture("orientation-1.jpg"), settings())),
    );
    assert.deepEqual(after.map((r) => r.width), [64, 64, 64], "both slots serve again");
  } finally {
    await pool.close();
  }
});

/** A 2000×2000 photo-sized JPEG of noise: a job that runs for a second or more, not milliseconds. */
async function slowJpeg(): Promise<Uint8Array> {
  const data = new Uint8ClampedArray(2000 * 2000 * 4);
  for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
  return await encodeJpegPixels({ data, width: 2000, height: 2000 }, mozJpegOptions(settings(), 95, false));
}

Deno.test("if the host that starts workers dies, running jobs fail as crashes and a new host serves the rest", async () => {
  const threads = () => [...Deno.readDirSync("/proc/self/task")].length;
  const slow = await slowJpeg();
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 60_000, maxQueue: 10, hostUrl: CRASHING_HOST_URL });
  try {
    await pool.compress(await fixture("orientation-1.jpg"), settings()); // every thread started
    const before = threads();
    const running = [slow.slice(), slow.slice()].map((bytes) =>
      rejectsWith(pool.compress(bytes, settings()), "worker_crashed")
    );
    crashTheHostWorkers();
    await Promise.all(running);
    const after = await Promise.all(
      [1, 2, 3].map(async () => pool.compress(await fixture("orientation-1.jpg"), settings())),
    );
    assert.deepEqual(after.map((r) => r.width), [64, 64, 64]);
    // The dead host's codec workers went with it (each holds ~5 threads): none are left behind once
    // the runtime has wound their threads down.
    await waitFor(() => threads() <= before + 4, {
      timeoutMs: 15_000,
      intervalMs: 250,
      message: () => `the dead host's threads to go: ${before} threads before the crash, ${threads()} now`,
    });
  } finally {
    await pool.close();
  }
});

Deno.test("pool recycles a worker after N jobs and keeps working, starting workers off the calling thread", async () => {
  // `new Worker()` blocks its caller while the new runtime is built: only the host worker may be made here.
  const NativeWorker = globalThis.Worker;
  let madeHere = 0;
  globalThis.Worker = class extends NativeWorker {
    constructor(...args: ConstructorParameters<typeof Worker>) {
      super(...args);
      madeHere++;
    }
  };
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10, recycleAfterJobs: 1 });
  try {
    for (let i = 0; i < 3; i++) {
      assert.equal((await pool.compress(await fixture("orientation-1.jpg"), settings())).width, 64);
    }
    assert.equal(madeHere, 1);
  } finally {
    globalThis.Worker = NativeWorker;
    await pool.close();
  }
});

Deno.test("close drains queued jobs and then refuses new ones", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10 });
  const inputs = await Promise.all(["base.jpg", "orientation-2.jpg", "base.jpg"].map(fixture));
  const jobs = Promise.all([pool.compress(inputs[0]!, settings()), pool.compress(inputs[1]!, settings())]);
  const closing = pool.close();
  const [results] = await Promise.all([jobs, rejectsWith(pool.compress(inputs[2]!, settings()), "closed"), closing]);
  assert.equal(results.length, 2);
});

Deno.test({
  name: "pool workers run at a lower CPU priority than the server's main thread (Linux)",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const niceOf = (tid: string) => {
      // Field 19 of /proc/<pid>/task/<tid>/stat, counted after the parenthesised command name.
      const stat = Deno.readTextFileSync(`/proc/self/task/${tid}/stat`);
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    };
    const threadNices = () => [...Deno.readDirSync("/proc/self/task")].map((e) => niceOf(e.name));
    const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10 });
    try {
      await pool.compress(await fixture("orientation-1.jpg"), settings());
      assert.ok(threadNices().includes(10), "the worker thread runs at nice 10");
      assert.equal(niceOf(String(Deno.pid)), 0, "the main thread keeps its priority");
    } finally {
      await pool.close();
    }
  },
});

Deno.test("the pool's malloc tuning is accepted by glibc (Linux)", { ignore: Deno.build.os !== "linux" }, () => {
  // mallopt answers 0 for a parameter or value it does not take.
  assert.equal(returnFreedMemory(), true);
});

/** base.jpg with its frame header claiming `width`×`height`: a small file that declares a huge image. */
async function declaring(width: number, height: number): Promise<Uint8Array> {
  const bytes = (await fixture("base.jpg")).slice();
  const sof = bytes.findIndex((b, i) => b === 0xff && bytes[i + 1] === 0xc0);
  new DataView(bytes.buffer).setUint16(sof + 5, height);
  new DataView(bytes.buffer).setUint16(sof + 7, width);
  return bytes;
}

Deno.test("[regression] a file too small for its declared size fails from its header, and its worker is kept", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10 });
  try {
    for (let i = 0; i < 3; i++) {
      await rejectsWith(
        pool.compress(await declaring(7071, 7071), settings()),
        "corrupt_image",
        /^Cannot decode the image: 6865 bytes cannot hold the 7071×7071 image its header declares$/,
      );
    }
    assert.equal(pool.stats().replaced, 0, "header failures leave the worker as it was");
    assert.equal((await pool.compress(await fixture("orientation-1.jpg"), settings())).width, 64);
  } finally {
    await pool.close();
  }
});

Deno.test("a worker is kept while its codec heaps stay under recycleAfterHeapBytes and replaced past it", async () => {
  for (const [recycleAfterHeapBytes, replaced] of [[undefined, 0], [1, 2]] as const) {
    const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10, recycleAfterHeapBytes });
    try {
      for (let i = 0; i < 2; i++) {
        assert.equal((await pool.compress(await fixture("orientation-1.jpg"), settings())).width, 64);
      }
      assert.equal(pool.stats().replaced, replaced, `recycleAfterHeapBytes ${recycleAfterHeapBytes}`);
    } finally {
      await pool.close();
    }
  }
});

Deno.test("a deferred score is the score the same job measures in one call, for JPEG and WebP outputs", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10 });
  try {
    // orientation-6: the score must compare against the upright original, as the inline measure does.
    for (const [name, format] of [["orientation-6.jpg", "jpeg"], ["base.jpg", "webp"]] as const) {
      const original = await fixture(name);
      const inline = await pool.compress(original.slice(), settings({ format, quality: 40 }));
      const deferred = await pool.compress(original.slice(), settings({ format, quality: 40 }), { deferScore: true });
      assert.equal(deferred.quality, null, `${name}: no score yet`);
      assert.deepEqual(deferred.bytes, inline.bytes, `${name}: the same output`);
      const scored = await pool.score(original.slice(), deferred.bytes);
      assert.deepEqual(scored, inline.quality, name);
      assert.ok(scored.score < 100, `${name}: a q40 output is not identical (${scored.score})`);
    }
  } finally {
    await pool.close();
  }
});

Deno.test("a Blob input gives what its bytes give, and stays readable in the caller (it is shared, not moved)", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10 });
  try {
    const original = await fixture("orientation-6.jpg");
    const blob = new Blob([original.slice()], { type: "image/jpeg" });
    const fromBytes = await pool.compress(original.slice(), settings({ quality: 40 }), { deferScore: true });
    const fromBlob = await pool.compress(blob, settings({ quality: 40 }), { deferScore: true });
    assert.deepEqual(fromBlob.bytes, fromBytes.bytes);
    assert.equal(fromBlob.width, fromBytes.width);
    assert.equal(blob.size, original.length, "the caller's Blob is intact");
    // One Blob as both inputs (a kept original is its own result).
    const base = new Blob([await fixture("base.jpg") as Uint8Array<ArrayBuffer>]);
    assert.equal((await pool.score(base, base)).score, 100);
    const scored = await pool.score(blob, new Blob([fromBlob.bytes as Uint8Array<ArrayBuffer>]));
    assert.deepEqual(scored, await pool.score(original.slice(), fromBytes.bytes.slice()));
    await rejectsWith(pool.compress(new Blob([]), settings()), "unsupported_format", /^The file is empty$/);
  } finally {
    await pool.close();
  }
});

Deno.test("a score target measures in the call even when scores are deferred", async () => {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 30_000, maxQueue: 10 });
  try {
    const result = await pool.compress(await fixture("base.jpg"), settings({ target: { kind: "auto" } }), {
      deferScore: true,
    });
    assert.ok(result.quality && result.quality.ssimulacra2 >= 80, JSON.stringify(result.quality));
  } finally {
    await pool.close();
  }
});

/** The codec without workers (codecs/pool/in-process.ts): one job at a time on this thread. */
import assert from "node:assert/strict";
import { DEFAULT_SETTINGS } from "../../contract/settings.ts";
import { createInProcessCodec } from "../../codecs/pool/in-process.ts";
import { CodecError } from "../../codecs/errors.ts";

const base = () => Deno.readFile(new URL("../fixtures/base.jpg", import.meta.url));

Deno.test("in process: jobs run one after another, results as from the pool, aborts and close refuse", async () => {
  const codec = createInProcessCodec({ jobTimeoutMs: 30_000 });
  const events: string[] = [];
  const settings = { ...DEFAULT_SETTINGS, quality: 70 };
  const [r1, r2] = await Promise.all([
    codec.compress(await base(), settings, { onProgress: (stage) => events.push(`1:${stage}`) }),
    codec.compress(await base(), settings, { onProgress: (stage) => events.push(`2:${stage}`), deferScore: true }),
  ]);
  const lastOfFirst = events.findLastIndex((e) => e.startsWith("1:"));
  const firstOfSecond = events.findIndex((e) => e.startsWith("2:"));
  assert.ok(lastOfFirst < firstOfSecond, `serial: ${events.join(" ")}`);
  assert.deepEqual([...r1.bytes.subarray(0, 2)], [0xff, 0xd8]);
  assert.ok(r1.quality, "measured");
  assert.equal(r2.quality, null, "deferred");
  const report = await codec.score(await base(), r2.bytes.slice());
  assert.ok(report.overall > 0);

  const controller = new AbortController();
  controller.abort(new DOMException("Cancelled", "AbortError"));
  await assert.rejects(codec.compress(await base(), settings, { signal: controller.signal }));
  await codec.close();
  await assert.rejects(
    codec.compress(await base(), settings),
    (err) => err instanceof CodecError && err.code === "closed",
  );
});

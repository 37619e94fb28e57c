/** A live preview lane (issue 24, item 1) never queues stale encodes: one in flight, only the newest waits. */
import assert from "node:assert/strict";
import { Lane } from "../../web/src/features/live-preview/lib/preview-engine.ts";
import { DEFAULT_SETTINGS } from "../../contract/settings.ts";

Deno.test("a slider moved quickly sends the first and the last value, never the ones between", () => {
  const posted: number[] = [];
  const lane = new Lane({ postMessage: (m: { gen: number }) => posted.push(m.gen), terminate() {}, onmessage: null });
  const region = { x: 0, y: 0, width: 64, height: 64 };
  for (let gen = 1; gen <= 6; gen++) {
    lane.send({ type: "crop", gen, settings: { ...DEFAULT_SETTINGS, quality: 90 - gen }, region });
  }
  assert.deepEqual(posted, [1], "one request in flight");
  assert.equal(lane.idle, false);
  lane.settled();
  assert.deepEqual(posted, [1, 6], "then only the newest");
  lane.settled();
  assert.equal(lane.idle, true);
});

Deno.test("a lane restarted drops the request in flight with its worker and sends the newest to the new one", () => {
  const old: unknown[] = [];
  let terminated = false;
  const lane = new Lane({
    postMessage: (m: unknown) => old.push(m),
    terminate: () => void (terminated = true),
    onmessage: null,
  });
  const settings = { ...DEFAULT_SETTINGS, target: { kind: "auto" as const } };
  lane.send({ type: "full", gen: 1, settings });
  lane.send({ type: "full", gen: 2, settings });
  lane.send({ type: "full", gen: 3, settings });
  assert.equal(lane.running?.gen, 1);
  const fresh: { type: string; gen?: number }[] = [];
  lane.restart({ postMessage: (m: { type: string }) => fresh.push(m), terminate() {}, onmessage: null }, {
    type: "open",
    bytes: new ArrayBuffer(8),
  });
  assert.ok(terminated, "the old worker is stopped");
  assert.deepEqual(fresh.map((m) => m.gen ?? m.type), ["open", 3], "the new one opens the original, then gen 3");
  assert.equal(lane.running?.gen, 3);
});

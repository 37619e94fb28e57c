/** Zooming Compare around a point (issue 24 item 2): the image point under it stays put. */
import assert from "node:assert/strict";
import { clampPan, panAround, scaleDown, scaleUp } from "../../web/src/features/compare/lib/view-state.ts";

/** Where the image point `q` (frame fractions from the centre at Fit) is drawn at relative zoom `z` and `pan`. */
const drawnAt = (q: number, z: number, pan: number) => pan + z * q;

Deno.test("panAround keeps the point under the pointer where it was", () => {
  const at = { x: -0.2, y: 0.3 };
  const pan = { x: 0.05, y: -0.1 };
  const z0 = 1.5;
  const z1 = 2;
  const next = panAround(pan, z1 / z0, at);
  const qx = (at.x - pan.x) / z0;
  const qy = (at.y - pan.y) / z0;
  assert.ok(Math.abs(drawnAt(qx, z1, next.x) - at.x) < 1e-12);
  assert.ok(Math.abs(drawnAt(qy, z1, next.y) - at.y) < 1e-12);
  // Within the limits it needs no clamping.
  assert.deepEqual(clampPan(next, z1 * 100), next);
});

Deno.test("around the centre the pan only scales", () => {
  assert.deepEqual(panAround({ x: 0.1, y: -0.1 }, 2, { x: 0, y: 0 }), { x: 0.2, y: -0.2 });
});

Deno.test("wheel steps land on exact 25% steps from any scale", () => {
  const fit = 0.41;
  assert.equal(scaleUp(fit, fit), 0.5);
  assert.equal(scaleDown(fit, fit), 0.25);
  assert.equal(scaleUp(1, fit), 1.25);
  assert.equal(scaleDown(1, fit), 0.75);
});

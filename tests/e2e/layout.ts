/**
 * Reading layout in browser tests by condition, never by a pause: a box is read only from an element that is
 * attached, rendered (a box of some size, not `visibility: hidden`) and still (the same box over two animation
 * frames), so a check never sees an element before layout, in the middle of an animation, or after it left.
 * On a busy machine these conditions take longer to hold; nothing here guesses how long.
 */
import type { Locator, Page } from "playwright-core";

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How long an element may take to appear and hold still (Playwright's own default for actions). */
const LAYOUT_TIMEOUT_MS = 30_000;

/**
 * In the page: `el`'s box once it is attached, rendered and has not moved over two animation frames, else null
 * (it left, is hidden, or moved meanwhile).
 */
async function readWhenStill(el: Element): Promise<Box | null> {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const shown = () => {
    if (!el.isConnected || getComputedStyle(el).visibility === "hidden") return null;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
  };
  const same = (a: Box | null, b: Box | null) =>
    a !== null && b !== null && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  const a = shown();
  if (!a) return null;
  await frame();
  const b = shown();
  await frame();
  const c = shown();
  return same(a, b) && same(b, c) ? c : null;
}

/**
 * The box of `locator`'s element (one element: use `.first()` or `.nth()` for a list) once it is visible and
 * still. Where it left or moved meanwhile, it is looked up and read again, until `timeout`.
 */
export async function settledBox(locator: Locator, timeout = LAYOUT_TIMEOUT_MS): Promise<Box> {
  const deadline = performance.now() + timeout;
  let why = "it never showed";
  for (;;) {
    const left = () => Math.max(1, deadline - performance.now());
    try {
      await locator.waitFor({ state: "visible", timeout: left() });
      const box = await locator.evaluate(readWhenStill, undefined, { timeout: left() });
      if (box) return box;
      why = "it moved, hid or left whenever it was read";
    } catch (err) {
      why = (err as Error).message.split("\n")[0]!;
    }
    if (performance.now() >= deadline) {
      throw new Error(`No still box for ${locator} within ${timeout} ms: ${why}`);
    }
  }
}

/**
 * What `boxesInOneFrame` reads: every rendered element that matches a CSS selector (and holds `hasText`), looked
 * up afresh each frame (so an element the page re-renders is found again).
 */
export type LayoutTarget = string | { css: string; hasText?: string };

/**
 * The boxes of several targets read together in one animation frame of the page, once each has at least one
 * rendered element and none moved since the frame before. For layouts with an element that comes and goes by
 * itself (a notice that closes after a few seconds): the page is polled every frame, so the boxes are read the
 * frame they settle, never a round trip later, and all of them at the same moment.
 */
export async function boxesInOneFrame<K extends string>(
  page: Page,
  targets: Record<K, LayoutTarget>,
  timeout = LAYOUT_TIMEOUT_MS,
): Promise<Record<K, Box[]>> {
  const names = Object.keys(targets) as K[];
  const specs = names.map((name) => {
    const target: LayoutTarget = targets[name];
    return typeof target === "string"
      ? { css: target, hasText: null }
      : { css: target.css, hasText: target.hasText ?? null };
  });
  const key = `__boxesInOneFrame${crypto.randomUUID()}`;
  const handle = await page.waitForFunction(
    ({ key, names, specs }) => {
      const store = globalThis as unknown as Record<string, string | undefined>;
      const rendered = (el: Element): Box | null => {
        if (!el.isConnected || getComputedStyle(el).visibility === "hidden") return null;
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
      };
      const boxes: Record<string, Box[]> = {};
      for (const [i, spec] of specs.entries()) {
        const found = [...document.querySelectorAll(spec.css)]
          .filter((el) => spec.hasText === null || (el.textContent ?? "").includes(spec.hasText))
          .map(rendered)
          .filter((box): box is Box => box !== null);
        if (found.length === 0) {
          store[key] = undefined;
          return null;
        }
        boxes[names[i]!] = found;
      }
      const now = JSON.stringify(boxes);
      const still = store[key] === now;
      store[key] = now;
      return still ? boxes : null;
    },
    { key, names: names as string[], specs },
    { polling: "raf", timeout },
  );
  return await handle.jsonValue() as Record<K, Box[]>;
}

/** Whether two boxes share any area. */
export const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

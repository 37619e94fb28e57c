/**
 * Issue 24 item 7: axe-core finds no serious or critical violations on the compressor page (signed in,
 * with a completed job), the open Compare dialog, the open Live preview panel (after its first
 * prediction) and an article page, at 1280×800 and 375×812.
 */
import assert from "node:assert/strict";
import axe from "axe-core";
import type { Page } from "playwright-core";
import { e2eSuite } from "./harness.ts";
import { photo, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** Runs axe on the whole document; resolves to the serious and critical violations, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  // The app's CSP (script-src 'self') blocks an inline <script> (page.addScriptTag), so the source is
  // evaluated over the DevTools protocol, which the CSP does not cover.
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document, { resultTypes: ["violations"] });
    return result.violations as Violation[];
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) =>
      v.nodes.map((n) => `${v.impact} ${v.id} (${v.help}) at ${JSON.stringify(n.target)}: ${n.failureSummary ?? ""}`)
    );
}

async function assertClean(page: Page, where: string): Promise<void> {
  const found = await seriousViolations(page);
  assert.deepEqual(found, [], `${where}: ${found.length} serious or critical axe violations:\n${found.join("\n")}`);
}

/** The Live preview's full-size prediction has arrived. */
const firstPrediction = (page: Page) =>
  page.waitForFunction(
    () => {
      const el = document.querySelector('[data-testid="live-preview"]');
      return el !== null && Number(el.getAttribute("data-full-gen") ?? 0) > 0 && !el.hasAttribute("data-full-pending");
    },
    undefined,
    { timeout: 60_000 },
  );

e2eSuite(
  "Accessibility: axe-core finds no serious or critical violations (issue 24 item 7)",
  async ({ newPage, step }) => {
    for (const [width, height] of [[1280, 800], [375, 812]] as const) {
      await step(
        `at ${width}×${height}: the compressor with a completed job, Compare, Live preview and an article`,
        async () => {
          const page = await newPage();
          await page.setViewportSize({ width, height });
          await signUpAndOpen(page, `axe${width}`);
          await upload(page, [photo("axe.jpg")]);
          await waitForCompleted(page, 1);
          await assertClean(page, `compressor at ${width}`);

          await page.getByRole("button", { name: "Compare axe.jpg" }).click();
          const dialog = page.getByTestId("compare-dialog");
          await dialog.waitFor();
          await page.waitForFunction(() => {
            const i = document.querySelector<HTMLImageElement>('[data-testid="compare-frame"] img[alt="Compressed"]');
            return i?.complete && i.naturalWidth > 0;
          });
          await assertClean(page, `Compare at ${width}`);
          await page.keyboard.press("Escape");
          await dialog.waitFor({ state: "detached" });

          await page.getByRole("button", { name: "Live preview axe.jpg" }).first().click();
          await page.getByTestId("live-preview").getByRole("heading", { name: "Live preview" }).waitFor();
          await firstPrediction(page);
          await assertClean(page, `Live preview at ${width}`);

          await page.goto("/article1");
          await page.locator("h1").first().waitFor();
          await assertClean(page, `/article1 at ${width}`);
          await page.context().close();
        },
      );
    }
  },
);

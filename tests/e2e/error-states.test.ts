/**
 * Issue 22, item 6 in Chromium: a failed read says so (with the server's words and Retry) instead of
 * looking empty, a render error gets a page with a way back, and Re-compress sends the settings on
 * screen (item 3), even when the server's saved copy differs.
 */
import assert from "node:assert/strict";
import type { Page, Request } from "playwright-core";
import { DEFAULT_SAVED_SETTINGS } from "../../contract/settings.ts";
import { openSettings, photo, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";
import { e2eSuite } from "./harness.ts";

/** One matcher per path: `unroute` finds a route by the very matcher it was added with. */
const matchers = new Map<string, (url: URL) => boolean>();
const at = (path: string) => {
  if (!matchers.has(path)) matchers.set(path, (url: URL) => url.pathname === path);
  return matchers.get(path)!;
};
const json = (status: number, body: unknown) => ({
  status,
  contentType: "application/json",
  body: JSON.stringify(body),
});

/** Sets the quality slider of the open settings panel to 50 (from the default 80). */
async function quality50(page: Page): Promise<void> {
  await openSettings(page);
  await page.getByLabel("Quality", { exact: true }).focus();
  for (let i = 0; i < 30; i++) await page.keyboard.press("ArrowLeft");
  assert.equal(await page.getByTestId("quality-value").textContent(), "50 · Fair");
  await page.getByRole("button", { name: "Done", exact: true }).click();
}

/** Waits until the server holds `count` jobs, all completed (versions of a photo share one card). */
const serverJobsCompleted = (page: Page, count: number) =>
  page.waitForFunction(
    async (n) => {
      const { jobs } = await (await fetch("/api/jobs")).json();
      return jobs.length === n && jobs.every((j: { status: string }) => j.status === "completed");
    },
    count,
    { timeout: 60_000, polling: 200 },
  );

const recompressOf = (kind: "jobs" | "batches") => (req: Request) =>
  req.method() === "POST" && new RegExp(`^/api/${kind}/[^/]+/recompress$`).test(new URL(req.url()).pathname);

e2eSuite("the web app shows its errors (issue 22) in the browser", async ({ newPage, step }) => {
  await step(
    "a failing GET /api/jobs shows an error notice with Retry, not 'No jobs yet'; Retry then shows the list",
    async () => {
      const page = await newPage();
      const message = "The job list is unavailable right now";
      await page.route(at("/api/jobs"), (route) => route.fulfill(json(500, { error: message })));
      await signUpAndOpen(page, "unlucky");
      const queue = page.locator("#results");
      const notice = queue.getByRole("alert");
      await notice.getByText("Could not load your jobs", { exact: true }).waitFor();
      assert.equal(await notice.getByTestId("query-error-message").textContent(), message);
      assert.equal(await queue.getByText("No jobs yet", { exact: false }).count(), 0);
      assert.equal(await page.getByTestId("queue-summary").count(), 0, "no '0 of 0 completed' either");

      // A failure without the server's words (a proxy's HTML page) reads as a plain sentence.
      await page.unroute(at("/api/jobs"));
      await page.route(at("/api/jobs"), (route) => route.fulfill({ status: 502, body: "<h1>Bad Gateway</h1>" }));
      await notice.getByRole("button", { name: "Retry" }).click();
      await notice.getByText(/^The server did not answer as expected\./).waitFor();

      await page.unroute(at("/api/jobs"));
      await notice.getByRole("button", { name: "Retry" }).click();
      await queue.getByText("No jobs yet. Upload JPEG images to start compressing.").waitFor();
      assert.equal(await queue.getByRole("alert").count(), 0);
      assert.equal(await page.getByTestId("queue-summary").textContent(), "0 of 0 completed");
      await page.context().close();
    },
  );

  await step("the other reads of the page fail the same way: batches, usage and the saved settings", async () => {
    const page = await newPage();
    for (const path of ["/api/batches", "/api/usage", "/api/settings"]) {
      await page.route(at(path), (route) => route.fulfill(json(503, { error: `No ${path.slice(5)} today` })));
    }
    await signUpAndOpen(page, "unluckier");
    for (
      const [what, message] of [
        ["your batches", "No batches today"],
        ["today's usage", "No usage today"],
        ["your saved settings", "No settings today"],
      ]
    ) {
      const notice = page.getByRole("alert").filter({ hasText: `Could not load ${what}` });
      assert.equal(await notice.getByTestId("query-error-message").textContent(), message);
      assert.equal(await notice.getByRole("button", { name: "Retry" }).count(), 1);
    }
    // The defaults apply meanwhile, and say so.
    assert.equal(await page.getByTestId("settings-summary").textContent(), "Quality 80 · JPEG · metadata stripped");
    await page.unrouteAll();
    for (const what of ["your batches", "today's usage", "your saved settings"]) {
      await page.getByRole("alert").filter({ hasText: `Could not load ${what}` }).getByRole("button", { name: "Retry" })
        .click();
    }
    await page.getByText("Each upload becomes a batch; its progress shows here.").waitFor();
    await page.getByTestId("usage-count").filter({ hasText: "0 / 10" }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="query-error"]').length === 0);
    await page.context().close();
  });

  await step("a render error shows the error page with Reload and a link home, and both lead back", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "crashed");
    // A server answering in an older shape: batches without their jobs, which the batch list reads.
    const oldShape = json(200, { batches: [{ id: "b1", name: "Batch 1", status: "completed" }] });
    await page.route(at("/api/batches"), (route) => route.fulfill(oldShape));
    await page.reload();
    await page.getByRole("heading", { name: "Something went wrong" }).waitFor();
    const home = page.getByRole("link", { name: "Go to the home page" });
    assert.equal(await home.getAttribute("href"), "/");
    assert.equal(await page.getByRole("heading", { name: "Processing Queue" }).count(), 0);

    await page.unroute(at("/api/batches"));
    await home.click();
    await page.getByRole("heading", { name: "Processing Queue" }).waitFor();

    await page.route(at("/api/batches"), (route) => route.fulfill(oldShape));
    await page.reload();
    await page.getByRole("heading", { name: "Something went wrong" }).waitFor();
    await page.unroute(at("/api/batches"));
    await page.getByRole("button", { name: "Reload" }).click();
    await page.getByRole("heading", { name: "Processing Queue" }).waitFor();
    await page.getByText("Each upload becomes a batch; its progress shows here.").waitFor();
    await page.context().close();
  });

  await step(
    "Re-compress (a job, a batch) sends the settings on screen, though saving them failed and the server's copy differs",
    async () => {
      const page = await newPage();
      await signUpAndOpen(page, "whatyousee");
      await upload(page, [photo("seen.jpg")]);
      await waitForCompleted(page, 1);

      // Saving is refused: the server keeps quality 80 while the screen says 50.
      await page.route(
        at("/api/settings"),
        (route) =>
          route.request().method() === "PUT" ? route.fulfill(json(503, { error: "Try later" })) : route.continue(),
      );
      await quality50(page);
      const onScreen = { ...DEFAULT_SAVED_SETTINGS, quality: 50 };

      const [jobRequest] = await Promise.all([
        page.waitForRequest(recompressOf("jobs")),
        page.getByRole("button", { name: "Re-compress seen.jpg with current settings" }).click(),
      ]);
      assert.deepEqual(jobRequest.postDataJSON(), { settings: onScreen });
      // One card per photo (issue 24, item 4): the versions are counted on the server.
      await serverJobsCompleted(page, 2);

      const [batchRequest] = await Promise.all([
        page.waitForRequest(recompressOf("batches")),
        page.getByTestId("batch-row").last().getByRole("button", {
          name: /^Re-compress batch .+ with current settings$/,
        })
          .click(),
      ]);
      assert.deepEqual(batchRequest.postDataJSON(), { settings: onScreen });
      // One card per photo (issue 24, item 4): the versions are counted on the server.
      await serverJobsCompleted(page, 3);

      const { jobs } = await (await page.request.get("/api/jobs")).json() as { jobs: { quality: number }[] };
      assert.deepEqual(jobs.map((j) => j.quality).sort(), [50, 50, 80]);
      const saved = await (await page.request.get("/api/settings")).json() as { settings: { quality: number } };
      assert.equal(saved.settings.quality, 80, "the server's copy was never what ran");
      await page.context().close();
    },
  );
});

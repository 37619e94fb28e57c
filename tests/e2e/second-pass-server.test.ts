/**
 * Issue 15, the items with a server side, in Chromium: one-click ZIP (6), a bad file fails alone (4),
 * quota before bytes (3) and re-compress from memory (5).
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { e2eSuite } from "./harness.ts";
import { settledBox } from "./layout.ts";
import { fileInput, openSettings, photo, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";

/** The user's jobs as the server has them. */
const serverJobs = (page: Page) =>
  page.evaluate(async () =>
    (await (await fetch("/api/jobs")).json()).jobs as {
      id: string;
      filename: string;
      status: string;
      quality: number;
      errorMessage: string | null;
      sourceJobId: string | null;
    }[]
  );

type ServerJob = Awaited<ReturnType<typeof serverJobs>>[number];

/** Polls the server until a completed job matching `pick` exists. */
async function completedJob(page: Page, pick: (j: ServerJob) => boolean): Promise<ServerJob> {
  for (let i = 0; i < 600; i++) {
    const found = (await serverJobs(page)).find((j) => pick(j) && j.status === "completed");
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("no such completed job");
}

/** A 1×1 PNG. */
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** Counts the `POST /api/compress` requests the page sends. */
function countUploads(page: Page) {
  const seen = { requests: 0 };
  page.on("request", (req) => {
    if (req.method() === "POST" && new URL(req.url()).pathname === "/api/compress") seen.requests++;
  });
  return seen;
}

e2eSuite("the compressor's second pass, server-backed items (issue 15) in the browser", async ({ newPage, step }) => {
  await step("[6] Download All fetches one ZIP named squeezejpeg-YYYY-MM-DD-N-images.zip", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "zipper");
    await upload(page, [photo("one.jpg"), photo("two.jpg")]);
    await waitForCompleted(page, 2);
    const zipRequests: string[] = [];
    page.on("request", (req) => {
      if (req.url().includes("/api/")) zipRequests.push(new URL(req.url()).pathname);
    });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download All (2)" }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^squeezejpeg-\d{4}-\d{2}-\d{2}-2-images\.zip$/);
    const bytes = await Deno.readFile((await download.path())!);
    assert.deepEqual([...bytes.subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04], "a ZIP");
    assert.deepEqual(zipRequests.filter((p) => p.startsWith("/api/download")), [], "no per-file downloads");
    assert.equal(zipRequests.filter((p) => p === "/api/jobs/download.zip").length, 1);
    // Per-file downloads stay on each card.
    const [single] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download one.jpg" }).click(),
    ]);
    assert.equal(single.suggestedFilename(), "one.jpg");
    await page.context().close();
  });

  for (const [width, height] of [[1280, 800], [375, 812]] as const) {
    await step(
      `[4] at ${width} px a file that is not a JPEG by its bytes fails alone, with its reason inline`,
      async () => {
        const page = await newPage();
        await page.setViewportSize({ width, height });
        await signUpAndOpen(page, `badfile${width}`);
        const uploads = countUploads(page);
        // A PNG renamed .jpg passes the browser's checks; the server reads its bytes.
        const png = Uint8Array.from(atob(TINY_PNG), (c) => c.charCodeAt(0));
        await fileInput(page).setInputFiles([
          photo("good-1.jpg"),
          { name: "renamed.jpg", mimeType: "image/jpeg", buffer: Buffer.from(png) },
          photo("good-2.jpg"),
        ]);
        // Picked files start at once (issue 24 item 3).
        await page.getByText("Upload successful", { exact: true }).waitFor();
        await page.getByText("2 file(s) uploaded and queued for compression; 1 file was refused", { exact: true })
          .waitFor();
        assert.equal(uploads.requests, 1);

        const jobs = await serverJobs(page);
        const bad = jobs.find((j) => j.filename === "renamed.jpg");
        assert.ok(bad && bad.status === "error" && bad.errorMessage, JSON.stringify(jobs));
        const lines = await page.getByTestId("refused-file").allTextContents();
        assert.deepEqual(lines, [`renamed.jpg: ${bad.errorMessage}`]);

        // Its own failed entry in the list, red, with the reason; the good ones complete.
        const card = page.locator(`[data-testid="job-card"][data-job-id="${bad.id}"]`);
        assert.equal(await card.getAttribute("data-status"), "error");
        assert.equal(await card.getByTestId("job-error").textContent(), bad.errorMessage);
        await waitForCompleted(page, 2);
        // Only the accepted files were charged.
        await page.getByTestId("usage-count").filter({ hasText: "2 / 10" }).waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.ok(overflow <= 0, `no sideways scroll at ${width} px (${overflow})`);
        await page.context().close();
      },
    );
  }

  for (const [width, height] of [[1280, 800], [375, 812]] as const) {
    await step(
      `[3] at ${width} px only what fits today's quota is sent at once, the rest stays marked, the card shows the limit`,
      async () => {
        const page = await newPage();
        await page.setViewportSize({ width, height });
        await signUpAndOpen(page, `quota${width}`);
        await upload(page, Array.from({ length: 8 }, (_, i) => photo(`early-${i}.jpg`)));
        await page.getByTestId("usage-count").filter({ hasText: "8 / 10" }).waitFor();

        const uploads = countUploads(page);
        // Picked files start at once (issue 24 item 3), the quota first: the 2 that fit are sent.
        await fileInput(page).setInputFiles(Array.from({ length: 5 }, (_, i) => photo(`late-${i}.jpg`)));
        await page.getByText("Upload successful", { exact: true }).waitFor();
        // The first upload's notice may still be on screen: the quota's count says the second one landed.
        await page.getByTestId("usage-count").filter({ hasText: "10 / 10" }).waitFor();
        assert.equal(uploads.requests, 1);
        const jobs = await serverJobs(page);
        assert.equal(jobs.length, 10, "8 + only the 2 that fit");
        assert.deepEqual(jobs.filter((j) => j.filename.startsWith("late-")).map((j) => j.filename).sort(), [
          "late-0.jpg",
          "late-1.jpg",
        ]);
        // The 3 others stay selected, marked; nothing more can be sent today.
        const button = page.getByTestId("upload-button");
        assert.equal(await page.getByTestId("selected-count").textContent(), "3 / 20");
        await button.filter({ hasText: "Compress 0 of 3" }).waitFor();
        assert.ok(await button.isDisabled());
        await page.getByRole("link", { name: "Upgrade for all" }).waitFor();
        const notice = page.getByTestId("quota-notice");
        await notice.getByText("Daily limit reached: 10 of 10 free compressions used today.").waitFor();
        await notice.getByText("3 files are over the limit and will not be sent.", { exact: false }).waitFor();
        assert.equal(await page.getByTestId("over-quota").count(), 3);
        for (const el of [button, page.getByRole("link", { name: "Upgrade for all" })]) {
          const box = await settledBox(el);
          assert.ok(box.x >= 0 && box.x + box.width <= width, `${await el.textContent()} fits at ${width} px`);
        }
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.ok(overflow <= 0, `no sideways scroll at ${width} px (${overflow})`);
        assert.equal(uploads.requests, 1, "nothing sent that would be refused");

        if (width === 1280) {
          // Upgrade from the upload card; back from checkout the limit is gone without a reload.
          await notice.getByRole("link", { name: "Upgrade to Premium" }).click();
          await page.waitForURL((u) => u.pathname === "/subscribe");
          await page.getByRole("button", { name: "Subscribe Now" }).click();
          await page.waitForURL((u) => u.pathname.startsWith("/billing/test-checkout/"));
          await page.getByRole("button", { name: "Pay" }).click();
          await page.waitForURL((u) => u.pathname === "/");
          await page.getByTestId("usage-card").getByText("Unlimited with Premium").waitFor();
          await fileInput(page).setInputFiles(Array.from({ length: 3 }, (_, i) => photo(`after-${i}.jpg`)));
          await page.getByText("3 file(s) uploaded and queued for compression", { exact: true }).waitFor();
          assert.equal(uploads.requests, 2, "all three sent at once");
          assert.equal(await page.getByTestId("quota-notice").count(), 0);
        }
        await page.context().close();
      },
    );
  }

  await step(
    "[5] Re-compress a job and a batch with the current settings: new jobs at the new quality, the old result still downloads",
    async () => {
      const page = await newPage();
      await signUpAndOpen(page, "recompressor");
      const uploads = countUploads(page);
      await upload(page, [photo("again.jpg")]);
      await waitForCompleted(page, 1);
      const [first] = await serverJobs(page);
      assert.ok(first && first.quality === 80);
      await page.getByTestId("usage-count").filter({ hasText: "1 / 10" }).waitFor();

      await openSettings(page);
      const quality = page.getByLabel("Quality", { exact: true });
      await quality.focus();
      for (let i = 0; i < 30; i++) await page.keyboard.press("ArrowLeft");
      assert.equal(await page.getByTestId("quality-value").textContent(), "50 · Fair");
      await page.getByRole("button", { name: "Done", exact: true }).click();

      const button = page.getByRole("button", { name: "Re-compress again.jpg with current settings" });
      assert.equal(
        await button.getAttribute("title"),
        "Re-compress with current settings: Quality 50 · JPEG · metadata stripped",
      );
      await button.click();
      await page.getByText("Re-compressing again.jpg", { exact: true }).waitFor();
      const second = await completedJob(page, (j) => j.id !== first.id);
      assert.equal(second.sourceJobId, first.id);
      assert.equal(second.quality, 50);
      assert.equal(uploads.requests, 1, "no file was sent again");
      // One card per photo (issue 24, item 4): the newest version, the earlier one folded under it.
      const card = page.locator(`[data-testid="job-card"][data-job-id="${second.id}"][data-status="completed"]`);
      await card.waitFor();
      assert.equal(await page.getByTestId("job-card").count(), 1, "the photo is shown once");
      assert.equal(await card.getByTestId("job-source").textContent(), "Re-compressed from again.jpg");
      assert.equal(await page.getByTestId("queue-summary").textContent(), "1 of 1 completed");
      // The old result stays and still downloads, from "Earlier versions", named by its settings.
      const earlier = card.getByTestId("earlier-versions");
      await earlier.locator("summary").click();
      assert.equal(await earlier.getByTestId("earlier-version").count(), 1);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        earlier.getByRole("button", { name: "Download again.q80.jpg" }).click(),
      ]);
      assert.equal(download.suggestedFilename(), "again.q80.jpg");
      const oldBytes = await Deno.readFile((await download.path())!);
      const newRes = await page.request.get(`/api/download/${second.id}`);
      assert.equal(newRes.status(), 200);
      assert.notDeepEqual(new Uint8Array(await newRes.body()), oldBytes, "a new result beside the old one");
      // A re-compression of an image charged today costs no quota.
      await page.getByTestId("usage-count").filter({ hasText: "1 / 10" }).waitFor();

      // A whole batch, from the batch list.
      const batchButton = page.getByTestId("batch-row").last().getByRole("button", {
        name: /^Re-compress batch .+ with current settings$/,
      });
      await batchButton.click();
      await page.getByText(/^Re-compressing 1 image of /).waitFor();
      const third = await completedJob(page, (j) => j.id !== first.id && j.id !== second.id);
      assert.equal(third.quality, 50);
      assert.ok(third.sourceJobId === first.id, JSON.stringify(third));
      assert.equal(uploads.requests, 1);
      const latest = page.locator(`[data-testid="job-card"][data-job-id="${third.id}"][data-status="completed"]`);
      await latest.waitFor();
      assert.equal(await page.getByTestId("job-card").count(), 1, "still one photo");
      // Download all: the latest version under the photo's name; All versions: each named by its settings.
      const zip = await page.request.get("/api/jobs/download.zip?versions=all");
      assert.equal(zip.status(), 200);
      assert.match(zip.headers()["content-disposition"]!, /-3-versions\.zip/);
      // The first batch's own ZIP offers every version too, its re-compressions in later batches included.
      const batchAll = page.getByTestId("batch-row").last().getByRole("link", {
        name: /^All versions of .+ as a ZIP$/,
      });
      await batchAll.waitFor();
      const href = (await batchAll.getAttribute("href"))!;
      assert.match(href, /\/download\.zip\?versions=all$/);
      const batchZip = await page.request.get(href);
      assert.equal(batchZip.status(), 200);
      assert.match(batchZip.headers()["content-disposition"]!, /all-versions\.zip/);

      // A refusal reads as the server wrote it (here: the originals expired).
      const expired = "The originals have been deleted (images are kept for an hour after compression); upload again";
      await page.route(
        "**/api/jobs/*/recompress",
        (route) =>
          route.fulfill({ status: 410, contentType: "application/json", body: JSON.stringify({ error: expired }) }),
      );
      const oldCard = latest;
      await oldCard.getByRole("button", { name: "Re-compress again.jpg with current settings" }).click();
      await page.getByText("Could not re-compress again.jpg", { exact: true }).waitFor();
      await page.getByText(expired, { exact: true }).waitFor();
      await page.unroute("**/api/jobs/*/recompress");

      // At 375 px the card's actions still fit.
      await page.setViewportSize({ width: 375, height: 812 });
      const box = await settledBox(
        oldCard.getByRole("button", { name: "Re-compress again.jpg with current settings" }),
      );
      assert.ok(box.x >= 0 && box.x + box.width <= 375, "Re-compress fits at 375 px");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `no sideways scroll at 375 px (${overflow})`);
      await page.context().close();
    },
  );
});

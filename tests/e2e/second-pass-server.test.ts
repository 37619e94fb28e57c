/**
 * Issue 15, the items with a server side, in Chromium: one-click ZIP (6), a bad file fails alone (4),
 * quota before bytes (3) and re-compress from memory (5).
 */
import assert from "node:assert/strict";
import { e2eSuite } from "./harness.ts";
import { photo, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";

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
});

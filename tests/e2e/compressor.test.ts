/** The signed-in compressor page in Chromium against a real server (issue 5). */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { e2eSuite } from "./harness.ts";
import { settledBox } from "./layout.ts";
import {
  bigPhotoBytes,
  dragFiles,
  fileInput,
  fixture,
  openSettings,
  photo,
  signUpAndOpen,
  upload,
  type UploadFile,
  waitForCompleted,
} from "./compressor-helpers.ts";
import { waitFor } from "../setup/wait-for.ts";

const isJpeg = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/** Entry names and bytes of a ZIP, read from its central directory. */
async function readZip(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = bytes.length - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  assert.ok(eocd >= 0, "the ZIP has an end-of-central-directory record");
  const count = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  const entries = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    assert.equal(view.getUint32(p, true), 0x02014b50);
    const method = view.getUint16(p + 10, true);
    const size = view.getUint32(p + 20, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const local = view.getUint32(p + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLen));
    const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const raw = bytes.subarray(dataStart, dataStart + size);
    const data = method === 0 ? raw : new Uint8Array(
      await new Response(new Blob([raw.slice()]).stream().pipeThrough(new DecompressionStream("deflate-raw")))
        .arrayBuffer(),
    );
    entries.set(name, data);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

const dropFiles = (page: Page, files: { name: string; type: string; size: number }[], phase: "drag" | "drop") =>
  dragFiles(page, files, phase, "dropzone");

const notice = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

e2eSuite("the compressor page in the browser", async ({ newPage, step }) => {
  await step(
    "dropping valid and invalid files shows the spec's notices and one inline line per refused file",
    async () => {
      const page = await newPage();
      await signUpAndOpen(page, "dropper");
      assert.equal(await fileInput(page).getAttribute("accept"), ".jpg,.jpeg,image/jpeg,image/jpg");
      // Valid files start uploading at once (issue 24 item 3): here the first upload is held until its
      // notices are read, and every upload fails, so the files stay in the selected list.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/api/compress", async (route) => {
        await held;
        await route.abort();
      });

      // While a PNG is dragged over, the header warns; leaving restores it.
      await dropFiles(page, [{ name: "shot.png", type: "image/png", size: 10 }], "drag");
      await page.getByTestId("dropzone-heading").getByText("Invalid file type or size", { exact: true }).waitFor();
      await page.getByTestId("dropzone").dispatchEvent("dragleave");
      await page.getByTestId("dropzone-heading").getByText("Drag & drop JPEG images here").waitFor();

      await dropFiles(page, [
        { name: "ok.jpg", type: "image/jpeg", size: 5000 },
        { name: "notes.txt", type: "text/plain", size: 10 },
        { name: "huge.jpg", type: "image/jpeg", size: 10 * 1024 * 1024 + 1 },
      ], "drop");
      // Inline: one line per problem, with the exact figures; the spec's notices are toasts.
      const notices = page.getByTestId("upload-notices");
      assert.deepEqual(await notices.locator("li").allTextContents(), [
        "notes.txt: Only JPEG images are allowed",
        "huge.jpg: File too large (10.01 MB, limit 10 MB)",
      ]);
      await notice(page, "Some files processed");
      await notice(page, "1 of 3 files will be uploaded");
      release();
      await notice(page, "Upload failed");
      await page.getByTestId("selected-count").filter({ hasText: "1 / 20" }).waitFor();
      assert.equal(await page.getByTestId("selected-size").textContent(), "4.9 KB");

      // Only invalid files: nothing is added.
      await dropFiles(page, [{ name: "doc.pdf", type: "application/pdf", size: 10 }], "drop");
      await notice(page, "No valid files");
      await notice(page, "Please select JPEG images under 10MB");
      assert.equal(await page.getByTestId("selected-count").textContent(), "1 / 20");

      // Past 20 files the rest are refused with the count message.
      const many = Array.from({ length: 21 }, (_, i) => ({ name: `p${i}.jpg`, type: "image/jpeg", size: 100 }));
      await dropFiles(page, many, "drop");
      await page.getByTestId("upload-notices").getByText("p19.jpg: Too many files (max 20)", { exact: true }).waitFor();
      // The 10 that fit today's quota were sent (and failed), the 9 others stayed selected: all are listed.
      await page.getByTestId("selected-count").filter({ hasText: "20 / 20" }).waitFor();
      await page.getByRole("button", { name: "Clear selection" }).click();
      assert.equal(await page.getByTestId("selected-count").textContent(), "0 / 20");
      await page.context().close();
    },
  );

  await step("settings follow the spec's rules and are remembered for the user", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "tuner");
    assert.equal(await page.getByTestId("settings-summary").textContent(), "Quality 80 · JPEG · metadata stripped");
    await openSettings(page);
    const quality = page.getByLabel("Quality", { exact: true });
    assert.equal(await quality.inputValue(), "80");
    assert.equal(await page.getByTestId("quality-value").textContent(), "80 · Very Good");
    await quality.focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowRight");
    assert.equal(await page.getByTestId("quality-value").textContent(), "90 · Excellent");
    // The free plan runs 2 at a time: that is the only choice, and the hint says so.
    const choices = await page.getByLabel("Concurrent jobs").locator("option").allTextContents();
    assert.deepEqual(choices, ["2"]);
    await page.getByText("The free plan runs 2 images at a time", { exact: false }).waitFor();
    // Chroma, progressive and MozJPEG only for JPEG output.
    await page.getByLabel("Chroma subsampling").waitFor();
    await page.getByLabel("Output format").selectOption("webp");
    await page.getByLabel("Chroma subsampling").waitFor({ state: "detached" });
    assert.equal(await page.getByLabel("Progressive").count(), 0);
    assert.equal(await page.getByLabel("MozJPEG").count(), 0);
    assert.equal(await page.getByLabel("Strip metadata").count(), 0);
    assert.match(await page.getByTestId("format-note").textContent() ?? "", /drops all metadata.*ICC colour profile/);
    assert.equal(await page.getByTestId("settings-summary").textContent(), "Quality 90 · WebP · all metadata dropped");
    // AVIF: its chroma setting and Strip metadata (ICC and EXIF carried), not the JPEG-only options.
    await page.getByLabel("Output format").selectOption("avif");
    await page.getByLabel("Chroma subsampling").waitFor();
    await page.getByLabel("Strip metadata").waitFor();
    assert.equal(await page.getByLabel("Progressive").count(), 0);
    assert.match(await page.getByTestId("format-note").textContent() ?? "", /AVIF output carries the colour profile/);
    assert.equal(await page.getByTestId("settings-summary").textContent(), "Quality 90 · AVIF · metadata stripped");
    await page.getByLabel("Output format").selectOption("jpeg");
    // Targets are Premium: locked for a free user, with the way to upgrade.
    assert.ok(await page.getByRole("radio", { name: "Target size" }).isDisabled());
    assert.ok(await page.getByRole("radio", { name: "Auto" }).isDisabled());
    await page.getByTestId("target-controls").getByRole("link", { name: "Upgrade to Premium" }).waitFor();

    const saved = page.waitForResponse((r) => r.url().endsWith("/api/settings") && r.request().method() === "PUT");
    await page.getByLabel("Progressive").check();
    await saved;
    await page.reload();
    await page.getByRole("heading", { name: "Processing Queue" }).waitFor();
    await page.getByTestId("settings-summary").getByText("Quality 90 · JPEG", { exact: false }).waitFor();
    await openSettings(page);
    await page.waitForFunction(() => (document.getElementById("setting-quality") as HTMLInputElement)?.value === "90");
    assert.ok(await page.getByLabel("Progressive").isChecked());
    await page.context().close();
  });

  let page3: Page;
  const three: UploadFile[] = [photo("alpha.jpg"), photo("beta.jpg"), photo("gamma.jpg")];

  await step("uploading three photos queues them and each job completes with its savings", async () => {
    page3 = await newPage();
    await signUpAndOpen(page3, "uploader");
    // Picked files start at once (issue 24 item 3): no further click.
    await fileInput(page3).setInputFiles(three);
    await notice(page3, "Upload successful");
    await notice(page3, "3 file(s) uploaded and queued for compression");
    await waitForCompleted(page3, 3);
    const cards = page3.getByTestId("job-card");
    assert.equal(await cards.count(), 3);
    for (const text of await page3.getByTestId("job-savings").allTextContents()) {
      assert.match(text, /^\d+% saved$/);
      assert.ok(Number.parseInt(text) > 0, text);
    }
    await page3.getByTestId("batch-row").getByText("3 of 3 completed").waitFor();
    assert.equal(await page3.getByTestId("stat-completed").textContent(), "3");
    await page3.getByTestId("usage-count").getByText("3 / 10").waitFor();
    await page3.getByTestId("queue-efficiency").waitFor();
    // Each card shows the server's small thumbnail, not the full original (lazy: scrolled to first).
    const THUMBS = '[data-testid="job-card"] img[src*="size=thumb"]';
    const thumbs = await page3.locator(THUMBS).all();
    assert.equal(thumbs.length, 3);
    for (const [i, thumb] of thumbs.entries()) {
      await thumb.scrollIntoViewIfNeeded();
      const width = await page3.waitForFunction(([selector, n]) => {
        const img = document.querySelectorAll<HTMLImageElement>(selector)[n]!;
        return img.complete && img.naturalWidth;
      }, [THUMBS, i] as const);
      assert.ok(Number(await width.jsonValue()) <= 256, "a thumbnail-sized image");
    }
  });

  await step("compare switches between split, overlay and grid and zooms 25-400% in steps of 25", async () => {
    const page = page3;
    const card = page.getByTestId("job-card").first();
    await card.getByRole("button", { name: /^Compare / }).click();
    const panel = card.getByTestId("compare-panel");
    const divider = panel.getByRole("slider", { name: "Split position" });
    assert.equal(await divider.getAttribute("aria-valuenow"), "50");
    await divider.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Shift+ArrowLeft");
    assert.equal(await divider.getAttribute("aria-valuenow"), "41");

    // The zoom is the true scale against the image's pixels: 1:1 is 100%, then steps of 25.
    await panel.getByRole("button", { name: "1:1" }).click();
    assert.equal(await panel.getByTestId("zoom-value").textContent(), "100%");
    await panel.getByRole("button", { name: "Zoom in" }).click();
    assert.equal(await panel.getByTestId("zoom-value").textContent(), "125%");
    await panel.getByRole("tab", { name: "Overlay" }).click();
    await panel.getByLabel("Compressed opacity").waitFor();
    assert.equal(await panel.getByTestId("zoom-value").textContent(), "125%", "zoom is kept across views");
    await panel.getByRole("tab", { name: "Grid" }).click();
    await panel.getByRole("group", { name: /^Compressed\./ }).waitFor();
    const zoom = panel.getByRole("slider", { name: "Zoom" });
    await zoom.focus();
    await page.keyboard.press("End");
    assert.equal(await panel.getByTestId("zoom-value").textContent(), "400%");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await panel.getByTestId("zoom-value").textContent(), "375%");
    await page.keyboard.press("Home");
    assert.equal(await panel.getByTestId("zoom-value").textContent(), "25%");
    assert.ok(await panel.getByRole("button", { name: "Zoom out" }).isDisabled());
    // Both grid panes share the zoom: each image is drawn at 25% of its own pixels.
    const images = panel.locator("img");
    assert.equal(await images.count(), 2);
    const widths = [];
    for (const image of await images.all()) {
      // Loaded and decoded first: its natural width is known then.
      const natural = await image.evaluate(async (i) => {
        await (i as HTMLImageElement).decode();
        return (i as HTMLImageElement).naturalWidth;
      });
      widths.push((await settledBox(image)).width / natural);
    }
    for (const w of widths) assert.ok(Math.abs(w - 0.25) < 0.02, `drawn at ${w} of its pixels`);

    // The server's measured scores, each with its word and colour (ADR 026), and the size reduction.
    const tiles = await panel.getByTestId("score").evaluateAll((els) =>
      els.map((e) => [e.getAttribute("data-tone"), e.getAttribute("data-word")])
    );
    assert.equal(tiles.length, 4);
    for (const [tone, word] of tiles) {
      assert.ok(["good", "fair", "poor"].includes(tone ?? ""), String(tone));
      assert.ok(["Lossless", "Excellent", "Very Good", "Good", "Fair", "Poor", "Very Poor"].includes(word ?? ""));
    }
    assert.match(await panel.getByTestId("size-reduction").textContent() ?? "", /^\d+%$/);
    // Compressed and original previews really loaded.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="compare-panel"] img')].every((i) =>
        (i as HTMLImageElement).naturalWidth > 0
      )
    );
    // Compare is a modal dialog (issue 24 item 2): Esc closes it and gives the page back.
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
  });

  await step("a preview that fails to load is replaced by the placeholder", async () => {
    const page = page3;
    await page.route(/\/api\/preview\/[^?]+$/, (route) => route.fulfill({ status: 500, body: "broken" }));
    const card = page.getByTestId("job-card").nth(1);
    await card.getByRole("button", { name: /^Compare / }).click();
    await card.locator('img[alt="Original"][data-placeholder="true"]').first().waitFor();
    await page.unroute(/\/api\/preview\/[^?]+$/);
    await page.keyboard.press("Escape");
    await card.getByTestId("compare-dialog").waitFor({ state: "detached" });
  });

  await step("Download saves one JPEG, smaller than the input, under the job's file name", async () => {
    const page = page3;
    const card = page.getByTestId("job-card").filter({ hasText: "beta.jpg" });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      card.getByRole("button", { name: "Download beta.jpg" }).click(),
    ]);
    assert.equal(download.suggestedFilename(), "beta.jpg");
    const bytes = await Deno.readFile((await download.path())!);
    assert.ok(isJpeg(bytes), "the download is a JPEG");
    assert.ok(bytes.length < three[1]!.buffer.length, `${bytes.length} < ${three[1]!.buffer.length}`);
  });

  await step("Download ZIP holds every completed file of the batch", async () => {
    const page = page3;
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("batch-row").getByRole("link", { name: /Download ZIP/ }).click(),
    ]);
    const entries = await readZip(await Deno.readFile((await download.path())!));
    assert.deepEqual([...entries.keys()].sort(), ["alpha.jpg", "beta.jpg", "gamma.jpg"]);
    for (const data of entries.values()) assert.ok(isJpeg(data));
  });

  await step("Download All saves one ZIP of the completed files and Remove completed removes them", async () => {
    const page = page3;
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download All (3)" }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^squeezejpeg-\d{4}-\d{2}-\d{2}-3-images\.zip$/);
    const entries = await readZip(await Deno.readFile((await download.path())!));
    assert.deepEqual([...entries.keys()].sort(), ["alpha.jpg", "beta.jpg", "gamma.jpg"]);
    await page.getByRole("button", { name: "Download All (3)" }).waitFor();

    await page.getByRole("button", { name: "Remove completed (3)" }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="job-card"]').length === 0);
    await page.getByText("No jobs yet.", { exact: false }).waitFor();
    await page.context().close();
  });

  await step(
    "an unreadable JPEG ends as a red error card with the server's message; Delete all jobs removes it",
    async () => {
      const page = await newPage();
      await signUpAndOpen(page, "breaker");
      await upload(page, [
        { name: "corrupt-scan.jpg", mimeType: "image/jpeg", buffer: fixture("corrupt-scan.jpg") },
      ]);
      const card = page.locator('[data-testid="job-card"][data-status="error"]');
      await card.waitFor({ timeout: 30_000 });
      const message = (await card.getByTestId("job-error").textContent()) ?? "";
      const jobs = await page.evaluate(async () => (await (await fetch("/api/jobs")).json()).jobs);
      assert.equal(message, jobs[0].errorMessage);
      assert.ok(message.length > 0);
      const bg = await card.evaluate((el) => getComputedStyle(el).backgroundColor);
      assert.match(bg, /^(rgb|oklch)/);
      assert.ok(await card.evaluate((el) => el.className.includes("bg-red-50")), "the card is red");
      // Remove completed keeps jobs that did not complete; Delete all jobs deletes every job, after asking.
      assert.ok(await page.getByRole("button", { name: "Remove completed (0)" }).isDisabled());
      await page.getByRole("button", { name: "Delete all jobs" }).click();
      await page.getByRole("button", { name: "Delete 1 image", exact: true }).click();
      await card.waitFor({ state: "detached" });
      const after = await page.evaluate(async () => (await (await fetch("/api/jobs")).json()).jobs.length);
      assert.equal(after, 0);
      await page.context().close();
    },
  );

  await step(
    "an upload shows its real bytes-sent progress; pausing a batch holds its pending jobs, resuming finishes them",
    async () => {
      const page = await newPage();
      await signUpAndOpen(page, "pauser");
      const big = Buffer.from(await bigPhotoBytes());
      const files = Array.from(
        { length: 8 },
        (_, i) => ({ name: `big-${i}.jpg`, mimeType: "image/jpeg", buffer: big }),
      );
      // A slow uplink (4 MB/s for ~8 MB) so the progress bar is seen part-way.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 4 * 1024 * 1024,
      });
      await fileInput(page).setInputFiles(files);
      await page.waitForFunction(() => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Upload progress"]');
        const v = Number(bar?.getAttribute("aria-valuenow"));
        return v > 0 && v < 100;
      });
      await page.getByRole("button", { name: "Uploading..." }).waitFor();
      // The rest at full speed: each image's work begins as it arrives (ADR 056), so a slow upload to its end
      // would leave little of the batch for the pause below.
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await page.getByText("Upload successful", { exact: true }).waitFor({ timeout: 30_000 });
      const row = page.getByTestId("batch-row").first();
      await row.getByRole("button", { name: /^Pause / }).click();
      await page.locator('[data-testid="batch-row"][data-status="paused"]').waitFor();
      // Visibility rules: while paused, Resume and Cancel show, Pause does not.
      await row.getByRole("button", { name: /^Resume / }).waitFor();
      await row.getByRole("button", { name: /^Cancel / }).waitFor();
      assert.equal(await row.getByRole("button", { name: /^Pause / }).count(), 0);
      // In-flight jobs may finish, but the rest wait. The server paused the batch before it answered, and
      // from then on it refuses to start a job of it: the jobs started by now are the only ones that may run.
      const serverJobs = () =>
        page.evaluate(async () => (await (await fetch("/api/jobs")).json()).jobs as { id: string; status: string }[]);
      const startedBeforePause = new Set((await serverJobs()).filter((j) => j.status !== "pending").map((j) => j.id));
      // Once none runs (the queue status counts the jobs this server runs; each run's end dispatched the next
      // job at once), none can start before the resume: whatever would have started has started by then.
      const processing = () =>
        page.evaluate(async () => (await (await fetch("/api/queue/status")).json()).currentlyProcessing);
      await waitFor(async () => await processing() === 0, {
        timeoutMs: 120_000,
        intervalMs: 500, // within the session's poll budget, beside the page's own polls
        message: "the jobs in flight at the pause to end",
      });
      const afterwards = await serverJobs();
      const startedSince = afterwards.filter((j) => j.status !== "pending" && !startedBeforePause.has(j.id));
      assert.deepEqual(startedSince, [], "no job started after the pause");
      const pending = afterwards.filter((j) => j.status === "pending").length;
      assert.ok(pending > 0, "pending jobs wait while the batch is paused");
      const pendingCards = page.locator('[data-testid="job-card"][data-status="pending"]');
      await waitFor(async () => await pendingCards.count() === pending, {
        message: () => `the page showing the ${pending} pending jobs (after its next poll)`,
      });
      await page.locator('[data-testid="batch-row"][data-status="paused"]').waitFor();
      await row.getByRole("button", { name: /^Resume / }).click();
      await waitForCompleted(page, 8, 120_000);
      await page.locator('[data-testid="batch-row"][data-status="completed"]').waitFor();
      assert.equal(await row.getByRole("button").filter({ hasText: /^(Pause|Resume|Cancel)$/ }).count(), 0);
      await page.context().close();
    },
  );

  await step("reaching the free daily limit shows the cue and the server's refusal", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "heavyuser");
    await upload(page, Array.from({ length: 8 }, (_, i) => photo(`day-${i}.jpg`)));
    await waitForCompleted(page, 8);
    await page.getByTestId("usage-count").getByText("8 / 10").waitFor();
    await page.getByText("You have used 80% of today's free compressions", { exact: true }).waitFor();

    // Two more from elsewhere (another tab): this page still believes two are left.
    const status = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const form = new FormData();
      for (const name of ["day-8.jpg", "day-9.jpg"]) {
        form.append("images", new File([bytes], name, { type: "image/jpeg" }));
      }
      return (await fetch("/api/compress", { method: "POST", body: form })).status;
    }, photo("x").buffer.toString("base64"));
    assert.equal(status, 201);

    const refused = page.waitForResponse((r) => r.url().endsWith("/api/compress"));
    await fileInput(page).setInputFiles([photo("one-too-many.jpg")]);
    const res = await refused;
    assert.equal(res.status(), 429);
    const { error } = await res.json() as { error: string };
    await notice(page, "Upload failed");
    await notice(page, error);
    // The refusal also stays where it happened, under the upload button.
    assert.equal(await page.getByTestId("upload-error").textContent(), error);
    // Usage is read again: the card shows the limit, and nothing more is sent.
    await page.getByTestId("usage-card").getByText("Daily limit reached", { exact: true }).waitFor();
    await page.getByTestId("upload-button").filter({ hasText: "Compress 0 of 1" }).waitFor();
    await page.getByTestId("quota-notice").getByRole("link", { name: "Upgrade to Premium" }).waitFor();
    await page.context().close();
  });

  await step("at 375 px the page fits the screen and every control has a label", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 375, height: 800 });
    await signUpAndOpen(page, "phoneuser");
    await upload(page, [photo("small.jpg")]);
    await waitForCompleted(page, 1);
    await page.getByRole("button", { name: /^Compare / }).click();
    await page.getByTestId("compare-panel").waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `no horizontal scroll (${width}px)`);
    const unlabeled = await page.evaluate(() => {
      const controls = [...document.querySelectorAll("main input, main select, main button, main [role=slider]")];
      return controls.filter((el) => {
        const e = el as HTMLInputElement;
        if (e.type === "hidden") return false;
        const named = e.getAttribute("aria-label") || e.getAttribute("aria-labelledby") ||
          (e.labels && e.labels.length > 0) || (el.tagName === "BUTTON" && el.textContent?.trim());
        return !named;
      }).map((el) => el.outerHTML.slice(0, 120));
    });
    assert.deepEqual(unlabeled, []);
    await page.context().close();
  });
});

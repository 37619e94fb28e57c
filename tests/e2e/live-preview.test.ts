/**
 * Issue 24, item 1, in Chromium: the Live preview re-encodes in the browser (the project's WASM codecs in a
 * Web Worker), sends nothing to the server while tuning, predicts the server's size and score for the same
 * settings, and "Apply to this photo" sends exactly the settings on screen.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import type { Job } from "../../contract/jobs.ts";
import { e2eSuite } from "./harness.ts";
import { settledBox } from "./layout.ts";
import { bigPhotoBytes, photo, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";

const serverJobs = (page: Page) => page.evaluate(async () => (await (await fetch("/api/jobs")).json()).jobs as Job[]);

/** The panel's figures once the full-size prediction for the newest settings is in. */
async function prediction(page: Page, afterGen = 0): Promise<{ gen: number; bytes: number; score: number }> {
  const panel = page.getByTestId("live-preview");
  await page.waitForFunction(
    (after) => {
      const el = document.querySelector('[data-testid="live-preview"]');
      return el !== null && Number(el.getAttribute("data-full-gen") ?? 0) > after &&
        !el.hasAttribute("data-full-pending");
    },
    afterGen,
    { timeout: 60_000 },
  );
  return {
    gen: Number(await panel.getAttribute("data-full-gen")),
    bytes: Number(await page.getByTestId("predicted-size").getAttribute("data-bytes")),
    score: Number(await page.getByTestId("predicted-score").getAttribute("data-score")),
  };
}

/**
 * The re-compression of `sourceId` once completed and scored, asserted to match the prediction: size within
 * 1%, score within 0.5.
 */
async function matchesServer(page: Page, sourceId: string, predicted: { bytes: number; score: number }) {
  let made: Job | undefined;
  for (let i = 0; i < 600 && !made; i++) {
    made = (await serverJobs(page)).find((j) =>
      j.sourceJobId === sourceId && j.status === "completed" && !j.scorePending && j.scores !== null
    );
    if (!made) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(made, "the re-compression completed");
  const sizeError = Math.abs(predicted.bytes - made.compressedSize!) / made.compressedSize!;
  assert.ok(sizeError <= 0.01, `predicted ${predicted.bytes} B, the server made ${made.compressedSize} B`);
  const serverScore = made.scores!.ssimulacra2 ?? made.scores!.score;
  assert.ok(
    Math.abs(predicted.score - serverScore) <= 0.5,
    `predicted score ${predicted.score}, the server measured ${serverScore}`,
  );
  return made;
}

e2eSuite("Live preview (issue 24, item 1) in the browser", async ({ newPage, step }) => {
  await step(
    "tuning re-encodes in the browser, predicts the server's size and score, and applies those settings",
    async () => {
      const page = await newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await signUpAndOpen(page, "tuner");
      const bytes = await bigPhotoBytes();
      await upload(page, [{ name: "tune.jpg", mimeType: "image/jpeg", buffer: Buffer.from(bytes) }]);
      await waitForCompleted(page, 1);
      const [job] = await serverJobs(page);
      assert.ok(job);

      await page.getByRole("button", { name: "Live preview tune.jpg" }).click();
      const panel = page.getByTestId("live-preview");
      await panel.getByRole("heading", { name: "Live preview" }).waitFor();
      const first = await prediction(page);
      await page.getByTestId("live-preview-crop").waitFor();
      // With the job's own settings the prediction is the job's result.
      assert.equal(first.bytes, job.compressedSize, "the prediction at the job's settings is its size");

      // From here on, nothing may reach the server until Apply.
      const requests: string[] = [];
      const record = (r: { url(): string; method(): string }) => {
        const url = new URL(r.url());
        if (url.origin === new URL(page.url()).origin && !url.protocol.startsWith("blob")) {
          requests.push(`${r.method()} ${url.pathname}`);
        }
      };
      page.on("request", record);
      const quality = panel.getByLabel("Quality", { exact: true });
      // A quick drag: the stale values are dropped, the last one is shown.
      for (const q of [70, 64, 58]) await quality.fill(String(q));
      const tuned = await prediction(page, first.gen);
      assert.ok(tuned.bytes < first.bytes, `q58 predicts a smaller file (${tuned.bytes} < ${first.bytes})`);
      assert.ok(tuned.score < first.score, `and a lower score (${tuned.score} < ${first.score})`);
      assert.match(await page.getByTestId("predicted-size").innerText(), /(KB|MB) · \d+% smaller/);
      assert.match(await page.getByTestId("predicted-score").innerText(), /^\d+ · [A-Z][a-z]+/);
      await panel.getByLabel("Chroma").selectOption("4:4:4");
      const chroma = await prediction(page, tuned.gen);
      assert.ok(chroma.bytes > tuned.bytes, "4:4:4 predicts a larger file");
      page.off("request", record);
      assert.deepEqual(requests, [], "no request to the server while tuning");

      // Apply sends exactly what is on screen.
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/${job.id}/recompress`)),
        panel.getByRole("button", { name: "Apply to this photo" }).click(),
      ]);
      const expected = { ...job.settings, quality: 58, chromaSubsampling: "4:4:4" };
      assert.deepEqual(request.postDataJSON(), { settings: expected });

      // The server's result for those settings: the prediction within 1% of its size and 0.5 of its score.
      const made = await matchesServer(page, job.id, chroma);
      assert.deepEqual(made.settings, expected);
      assert.deepEqual(errors, []);
      await page.context().close();
    },
  );

  await step("Premium: an Auto target is predicted by the job's own search, and Apply gets that result", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "autotuner");
    await page.goto("/subscribe");
    await page.getByRole("button", { name: "Subscribe Now" }).click();
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL((u) => u.pathname === "/");
    const bytes = await bigPhotoBytes();
    await upload(page, [{ name: "auto.jpg", mimeType: "image/jpeg", buffer: Buffer.from(bytes) }]);
    await waitForCompleted(page, 1);
    const [job] = await serverJobs(page);
    await page.getByRole("button", { name: "Live preview auto.jpg" }).click();
    const panel = page.getByTestId("live-preview");
    const first = await prediction(page);
    await panel.getByRole("radio", { name: "Auto" }).check();
    assert.equal(await panel.getByLabel("Quality", { exact: true }).isDisabled(), true, "a target sets the quality");
    const auto = await prediction(page, first.gen);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/${job!.id}/recompress`)),
      panel.getByRole("button", { name: "Apply to this photo" }).click(),
    ]);
    assert.deepEqual(request.postDataJSON(), { settings: { ...job!.settings, target: { kind: "auto" } } });
    await matchesServer(page, job!.id, auto);
    assert.ok(auto.score >= 80, `Auto aims at 80 or more (${auto.score})`);
    await page.context().close();
  });

  await step("AVIF is encoded in the browser, shown, and predicts the server's AVIF exactly", async () => {
    const page = await newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await signUpAndOpen(page, "aviffan");
    await upload(page, [photo("avif.jpg")]);
    await waitForCompleted(page, 1);
    const [job] = await serverJobs(page);
    await page.getByRole("button", { name: "Live preview avif.jpg" }).click();
    const panel = page.getByTestId("live-preview");
    const first = await prediction(page);
    await page.getByTestId("live-preview-crop").waitFor();
    const jpegCrop = await page.getByTestId("live-preview-crop").getAttribute("src");
    await panel.getByLabel("Format").selectOption("avif");
    const avif = await prediction(page, first.gen);
    assert.notEqual(avif.bytes, first.bytes, "AVIF predicts another size");
    assert.equal(await panel.getByLabel("Encoder").isDisabled(), true, "AVIF has its own encoder");
    // The 1:1 crop on screen is now the browser's own AVIF encode (a new object URL), decoded by Chromium.
    const cropShown = () =>
      page.evaluate(async () => {
        const img = document.querySelector<HTMLImageElement>('[data-testid="live-preview-crop"]');
        if (!img?.complete || img.naturalWidth === 0) return null;
        return await img.decode().then(() => img.src, () => null);
      });
    let shown: string | null = null;
    for (let i = 0; i < 300 && (shown === null || shown === jpegCrop); i++) {
      shown = await cropShown();
      if (shown === null || shown === jpegCrop) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(shown !== null && shown !== jpegCrop, "the AVIF crop replaced the JPEG one and decodes");
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/${job!.id}/recompress`)),
      panel.getByRole("button", { name: "Apply to this photo" }).click(),
    ]);
    assert.deepEqual(request.postDataJSON(), { settings: { ...job!.settings, format: "avif", encoder: "mozjpeg" } });
    const made = await matchesServer(page, job!.id, avif);
    assert.equal(made.format, "avif");
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  await step(
    "side by side at the resized size: the original left of the divider, the encode right, for every format",
    async () => {
      const page = await newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await signUpAndOpen(page, "splitter");
      await upload(page, [{ name: "split.jpg", mimeType: "image/jpeg", buffer: Buffer.from(await bigPhotoBytes()) }]);
      await waitForCompleted(page, 1);
      const [job] = await serverJobs(page);
      await page.getByRole("button", { name: "Live preview split.jpg" }).click();
      const panel = page.getByTestId("live-preview");
      const first = await prediction(page);
      await page.getByTestId("live-preview-original").waitFor();
      await page.getByTestId("live-preview-view").scrollIntoViewIfNeeded();
      const view = await settledBox(page.getByTestId("live-preview-view"));
      // The divider starts in the middle: the encode is clipped to the right half, the original shows at the left.
      const divider = panel.getByRole("slider", { name: "Split position" });
      assert.equal(await divider.getAttribute("aria-valuenow"), "50");
      const clipped = () =>
        page.evaluate(() =>
          (document.querySelector('[data-testid="live-preview-crop"]')!.parentElement as HTMLElement).style.clipPath
        );
      assert.equal(await clipped(), "inset(0px 0px 0px 50%)");
      // Dragged to a quarter of the way: more of the encode shows; the arrow keys move it too.
      const box = await settledBox(divider);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(view.x + view.width / 4, box.y + box.height / 2, { steps: 4 });
      await page.mouse.up();
      assert.equal(await divider.getAttribute("aria-valuenow"), "25");
      await divider.press("ArrowRight");
      assert.equal(await clipped(), "inset(0px 0px 0px 26%)");

      // Resized to 800 px wide: the original shown is the photo resized (its pixels, not the upload's: halving
      // averages the photo's pixel noise away), the text says the size, and the prediction is at that size.
      const roughness = () =>
        page.evaluate(() => {
          const c = document.querySelector<HTMLCanvasElement>('[data-testid="live-preview-original"]')!;
          const d = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
          let sum = 0;
          for (let i = 4; i < d.length; i += 4) sum += Math.abs(d[i]! - d[i - 4]!);
          return sum / (d.length / 4);
        });
      const before = await roughness();
      await panel.getByLabel("Max width (px)").fill("800");
      const resized = await prediction(page, first.gen);
      await panel.getByText("resized photo (800×600)").waitFor();
      assert.ok(resized.bytes < first.bytes / 2, `800 px predicts far fewer bytes (${resized.bytes} < ${first.bytes})`);
      await page.waitForFunction(
        (limit) => {
          const c = document.querySelector<HTMLCanvasElement>('[data-testid="live-preview-original"]')!;
          const d = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
          let sum = 0;
          for (let i = 4; i < d.length; i += 4) sum += Math.abs(d[i]! - d[i - 4]!);
          return sum / (d.length / 4) < limit;
        },
        before * 0.8,
        { timeout: 30_000 },
      );

      // Every format shows beside the original: the label on the right follows the format.
      for (const [format, label] of [["webp", "WebP"], ["avif", "AVIF"]] as const) {
        const gen = Number(await panel.getAttribute("data-full-gen"));
        await panel.getByLabel("Format").selectOption(format);
        await prediction(page, gen);
        await page.getByTestId("live-preview-view").getByText(label, { exact: true }).waitFor();
        await page.getByTestId("live-preview-original").waitFor();
      }
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/${job!.id}/recompress`)),
        panel.getByRole("button", { name: "Apply to this photo" }).click(),
      ]);
      assert.equal(request.postDataJSON().settings.maxWidth, 800, "Apply sends the resize on screen");
      assert.deepEqual(errors, []);
      await page.context().close();
    },
  );

  await step("Compare has the Live preview too, on the same photo's original", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "comparer");
    await upload(page, [photo("small.jpg")]);
    await waitForCompleted(page, 1);
    await page.getByRole("button", { name: /^Compare / }).click();
    const dialog = page.getByTestId("compare-dialog");
    await dialog.getByRole("button", { name: "Live preview small.jpg" }).click();
    await dialog.getByRole("heading", { name: "Live preview" }).waitFor();
    const first = await prediction(page);
    await dialog.getByTestId("live-preview").getByLabel("Format").selectOption("webp");
    const webp = await prediction(page, first.gen);
    assert.notEqual(webp.bytes, first.bytes, "WebP predicts another size");
    assert.equal(await dialog.getByTestId("live-preview").getByLabel("Encoder").isDisabled(), true);
    // "Apply to the batch" re-compresses the photo's batch with the same on-screen settings.
    const [job] = await serverJobs(page);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/${job!.batchId}/recompress`)),
      dialog.getByRole("button", { name: "Apply to the batch" }).click(),
    ]);
    assert.deepEqual(request.postDataJSON(), { settings: { ...job!.settings, format: "webp", encoder: "mozjpeg" } });
    await page.context().close();
  });
});

/** The Encoder choice (MozJPEG or jpegli) in Chromium: sent, remembered, shown on the results, and off for WebP. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { codecLabel } from "../../contract/codec-labels.ts";
import type { CodecId } from "../../contract/settings.ts";
import { e2eSuite } from "./harness.ts";
import { openSettings, photo, savedAfter, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";

interface JobView {
  filename: string;
  settings: { encoder: string };
  encoder: CodecId | null;
}

/** The settings the server recorded for the job made from `filename` (what the upload sent). */
async function jobOf(page: Page, filename: string): Promise<JobView> {
  const res = await page.request.get("/api/jobs");
  const { jobs } = await res.json() as { jobs: JobView[] };
  const job = jobs.find((j) => j.filename === filename);
  assert.ok(job, `a job for ${filename}`);
  return job;
}

const encoderSelect = (page: Page) => page.getByLabel("Encoder", { exact: true });

e2eSuite("the encoder choice in the browser", async ({ server, newPage, step }) => {
  let page: Page;

  await step(
    "jpegli chosen in the settings is uploaded, named in Compare and the batch row, and remembered",
    async () => {
      page = await newPage();
      await signUpAndOpen(page, "encoders");
      await openSettings(page);
      const encoder = encoderSelect(page);
      assert.equal(await encoder.inputValue(), "mozjpeg");
      assert.deepEqual(await encoder.locator("option").allTextContents(), ["MozJPEG", "jpegli"]);
      await page.getByText("Mozilla's encoder: the smallest files at low quality settings, and the default.").waitFor();

      const sent = await savedAfter(page, () => encoder.selectOption("jpegli").then(() => {}));
      assert.equal(sent.encoder, "jpegli");
      await page.getByText("Google's newer encoder: several times faster, and often smaller at high quality.")
        .waitFor();
      assert.equal(
        await page.getByTestId("settings-summary").textContent(),
        "Quality 80 · JPEG (jpegli) · metadata stripped",
      );
      // The MozJPEG toggle tunes MozJPEG only.
      assert.ok(await page.getByLabel("MozJPEG", { exact: true }).isDisabled());

      await upload(page, [photo("plasma.jpg")]);
      await waitForCompleted(page, 1);
      const job = await jobOf(page, "plasma.jpg");
      assert.deepEqual([job.settings.encoder, job.encoder], ["jpegli", "jpegli"]);
      const card = page.getByTestId("job-card").first();
      assert.match((await card.getByTestId("job-savings").textContent()) ?? "", /^[1-9]\d*% saved$/);
      await card.getByRole("button", { name: "Compare plasma.jpg" }).click();
      assert.equal(await card.getByTestId("compare-panel").getByTestId("compare-encoder").textContent(), "jpegli");
      await page.getByTestId("batch-row").getByTestId("batch-encoders").getByText("Encoder: jpegli", { exact: true })
        .waitFor();

      await page.reload();
      await page.getByRole("heading", { name: "Processing Queue" }).waitFor();
      await page.getByTestId("settings-summary").getByText("JPEG (jpegli)", { exact: false }).waitFor();
      await openSettings(page);
      await page.waitForFunction(() =>
        (document.getElementById("setting-encoder") as HTMLSelectElement)?.value === "jpegli"
      );
    },
  );

  await step("with WebP output the Encoder choice is disabled and jpegli never reaches the server", async () => {
    const sent = await savedAfter(page, () => page.getByLabel("Output format").selectOption("webp").then(() => {}));
    assert.equal(sent.format, "webp");
    assert.equal(sent.encoder, "mozjpeg", "the server refuses jpegli with WebP");
    const encoder = encoderSelect(page);
    assert.ok(await encoder.isDisabled());
    assert.equal(await page.locator("#setting-encoder-hint").textContent(), "WebP has its own encoder.");

    // The upload is accepted (jpegli with WebP would be a 400) and made by libwebp.
    await upload(page, [photo("to-webp.jpg")]);
    await waitForCompleted(page, 2);
    const job = await jobOf(page, "to-webp.jpg");
    assert.deepEqual([job.settings.encoder, job.encoder], ["mozjpeg", "webp"]);
    await page.getByTestId("batch-encoders").getByText("Encoder: WebP (libwebp)", { exact: true }).waitFor();

    // Back to JPEG: the choice made before is still there, and saved again.
    const back = await savedAfter(page, () => page.getByLabel("Output format").selectOption("jpeg").then(() => {}));
    assert.equal(back.encoder, "jpegli");
    assert.ok(await encoder.isEnabled());
    assert.equal(await encoder.inputValue(), "jpegli");
  });

  await step("with a Premium score target the hint and Compare say both encoders were tried", async () => {
    const { createDb } = await import("../../db/client.ts");
    const { users } = await import("../../db/schema.ts");
    const { eq } = await import("drizzle-orm");
    const database = await createDb({ url: server.databaseUrl });
    try {
      await database.db.update(users).set({ subscriptionStatus: "active" }).where(eq(users.username, "encoders"));
    } finally {
      database.close();
    }
    await page.reload();
    await page.getByRole("heading", { name: "Processing Queue" }).waitFor();
    await openSettings(page);
    const note = page.getByTestId("encoder-target-note");
    assert.equal(await note.count(), 0);
    await page.getByRole("radio", { name: "Auto" }).check();
    assert.equal(
      await note.textContent(),
      "With this target the server tries both encoders and keeps the smaller file.",
    );
    assert.equal(await page.getByTestId("settings-summary").textContent(), "Auto quality · JPEG · metadata stripped");
    // A size target encodes with the chosen encoder only.
    await page.getByRole("radio", { name: "Target size" }).check();
    await note.waitFor({ state: "detached" });

    // Auto's result names the encoder the search kept, and says it was the smaller of both.
    await page.getByRole("radio", { name: "Auto" }).check();
    await upload(page, [photo("auto.jpg")]);
    await waitForCompleted(page, 3);
    const job = await jobOf(page, "auto.jpg");
    assert.ok(job.encoder === "mozjpeg" || job.encoder === "jpegli", String(job.encoder));
    const card = page.getByTestId("job-card").filter({ hasText: "auto.jpg" });
    await card.getByRole("button", { name: "Compare auto.jpg" }).click();
    const panel = card.getByTestId("compare-panel");
    assert.equal(await panel.getByTestId("compare-encoder").textContent(), codecLabel(job.encoder));
    await panel.getByText("the target kept the smaller of both encoders' files", { exact: false }).waitFor();
    await page.context().close();
  });
});

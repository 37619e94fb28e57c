/** Resize in Chromium (issue 30, item 2): the settings panel's fields, sent, remembered and applied to the job. */
import assert from "node:assert/strict";
import { e2eSuite } from "./harness.ts";
import { settledBox } from "./layout.ts";
import { openSettings, photo, savedAfter, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";

e2eSuite("resize in the browser", async ({ newPage, step }) => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 812 }]) {
    await step(`at ${viewport.width} px a max width and a cover box are sent, remembered and applied`, async () => {
      const page = await newPage();
      await page.setViewportSize(viewport);
      await signUpAndOpen(page, `resize${viewport.width}`);
      await openSettings(page);
      const fields = page.getByTestId("resize-fields");
      const fit = fields.getByLabel("Fit");
      assert.ok(await fit.isDisabled(), "fit needs both sides");
      let sent = await savedAfter(page, () => fields.getByLabel("Max width (px)").fill("64"));
      assert.equal(sent.maxWidth, 64);
      assert.equal(sent.maxHeight, null);
      await page.getByTestId("settings-summary").getByText("up to 64 px wide").waitFor();
      sent = await savedAfter(page, () => fields.getByLabel("Max height (px)").fill("40"));
      assert.ok(await fit.isEnabled());
      sent = await savedAfter(page, () => fit.selectOption("cover").then(() => {}));
      assert.deepEqual([sent.maxWidth, sent.maxHeight, sent.fit], [64, 40, "cover"]);

      await upload(page, [photo("wide.jpg")]); // 128×96
      await waitForCompleted(page, 1);
      await page.getByTestId("job-card").getByText("64×40").waitFor();
      const { jobs } = await (await page.request.get("/api/jobs")).json();
      assert.deepEqual([jobs[0].width, jobs[0].height, jobs[0].keptOriginal], [64, 40, false]);

      // Compare shows the original cut and scaled as the result was: covering the result's 64:40 frame.
      await page.getByRole("button", { name: /^Compare / }).first().click();
      const dialog = page.getByRole("dialog");
      const original = dialog.getByRole("img", { name: "Original", exact: true }).first();
      await original.waitFor({ state: "attached" });
      assert.equal(await original.evaluate((img) => getComputedStyle(img).objectFit), "cover");
      const frame = await settledBox(original.locator("xpath=.."));
      assert.ok(Math.abs(frame.width / frame.height - 64 / 40) < 0.02, `frame ${frame.width}×${frame.height}`);
      await page.keyboard.press("Escape");

      await page.reload();
      await openSettings(page);
      assert.equal(await page.getByTestId("resize-fields").getByLabel("Max width (px)").inputValue(), "64");
      assert.equal(await page.getByTestId("resize-fields").getByLabel("Fit").inputValue(), "cover");
      await page.context().close();
    });
  }
});

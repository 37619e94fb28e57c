/**
 * JPEG XL in Chromium (issue 32): JPEG XL and Archive in the settings, the card's "JPEG … → JPEG XL …, same
 * pixels", Compare showing the JPEG it holds, and Restore giving back the uploaded bytes.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { e2eSuite } from "./harness.ts";
import { fixture, openSettings, savedAfter, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";

e2eSuite("JPEG XL in the browser", async ({ newPage, step }) => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 812 }]) {
    await step(
      `at ${viewport.width} px: archive an upload as JPEG XL, see it in Compare, restore it byte for byte`,
      async () => {
        const page = await newPage();
        await page.setViewportSize(viewport);
        await signUpAndOpen(page, `jxl${viewport.width}`);
        await openSettings(page);
        let sent = await savedAfter(page, () => page.getByLabel("Output format").selectOption("jxl").then(() => {}));
        assert.equal(sent.format, "jxl");
        const note = page.getByTestId("jxl-format");
        await note.getByText("JPEG XL holds the JPEG these settings make, losslessly").waitFor();
        sent = await savedAfter(page, () => note.getByLabel("Archive the original").check());
        assert.equal(sent.archive, true);
        assert.ok(await page.getByLabel("Quality", { exact: true }).isDisabled(), "nothing is re-encoded");
        await page.getByTestId("settings-summary").getByText("Archive: each upload itself as JPEG XL").waitFor();

        const original = fixture("metadata-all.jpg");
        await upload(page, [{ name: "keep.jpg", mimeType: "image/jpeg", buffer: original }]);
        await waitForCompleted(page, 1);
        const card = page.getByTestId("job-card").filter({ hasText: "keep.jpg" });
        await card.getByTestId("job-held").getByText(/^JPEG [\d.]+ KB → JPEG XL [\d.]+ KB, −\d+%, same pixels/)
          .waitFor();

        // Compare shows the JPEG it holds (Chromium need not show JPEG XL), and says so.
        await card.getByRole("button", { name: "Compare keep.jpg" }).click();
        const dialog = page.getByTestId("compare-dialog");
        await dialog.getByTestId("compare-jxl-note").waitFor();
        const shown = dialog.getByRole("img", { name: "Compressed", exact: true }).first();
        await page.waitForFunction(
          (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
          await shown.elementHandle(),
        );
        await page.keyboard.press("Escape");

        const [download] = await Promise.all([
          page.waitForEvent("download"),
          card.getByRole("button", { name: "Download keep.jpg" }).click(),
        ]);
        assert.equal(download.suggestedFilename(), "keep.jxl");
        const jxl = await Deno.readFile((await download.path())!);

        // Restore: the .jxl in, the uploaded bytes out, named .jpg.
        const restore = page.getByTestId("restore-card");
        const [restored] = await Promise.all([
          page.waitForEvent("download"),
          restore.getByLabel("Choose a JPEG XL file to restore").setInputFiles({
            name: "keep.jxl",
            mimeType: "image/jxl",
            buffer: Buffer.from(jxl),
          }),
        ]);
        assert.equal(restored.suggestedFilename(), "keep.jpg");
        assert.deepEqual(new Uint8Array(await Deno.readFile((await restored.path())!)), new Uint8Array(original));
        await restore.getByTestId("restore-done").getByText("Restored: keep.jpg saved").waitFor();

        // A JPEG is not a JPEG XL: the card says why.
        await restore.getByLabel("Choose a JPEG XL file to restore").setInputFiles({
          name: "not.jxl",
          mimeType: "image/jxl",
          buffer: original,
        });
        await restore.getByTestId("restore-error").getByText(/^Restore takes a JPEG XL file \(\.jxl\) made from a JPEG/)
          .waitFor();
        await page.context().close();
      },
    );
  }
});

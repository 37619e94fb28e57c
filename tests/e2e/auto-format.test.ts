/**
 * format=auto in Chromium (issue 30, item 4): a free user picks "Automatic", chooses the formats it may pick,
 * and the job's card says which format won and by how much; the summary line says what the next upload does.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { e2eSuite } from "./harness.ts";
import { openSettings, savedAfter, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";
import { smoothPhoto } from "../codecs/helpers.ts";

e2eSuite("automatic format in the browser", async ({ newPage, step }) => {
  const fields = { name: "fields.jpg", mimeType: "image/jpeg", buffer: Buffer.from(await smoothPhoto(640, 480)) };
  for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 812 }]) {
    await step(
      `at ${viewport.width} px Automatic sends format=auto with its formats; the card names the winner`,
      async () => {
        const page = await newPage();
        await page.setViewportSize(viewport);
        await signUpAndOpen(page, `autofmt${viewport.width}`);
        await openSettings(page);
        let sent = await savedAfter(page, () => page.getByLabel("Output format").selectOption("auto").then(() => {}));
        assert.equal(sent.format, "auto");
        assert.deepEqual(sent.formats, ["avif", "jpeg"], "the default choice: AVIF and JPEG");
        const auto = page.getByTestId("auto-format");
        await auto.getByText("Each photo gets the smallest of these formats").waitFor();
        assert.ok(await page.getByLabel("Quality", { exact: true }).isDisabled(), "auto finds the quality");
        // WebP in, AVIF out (AVIF's encodes are the slow ones); the last format checked cannot be unchecked.
        sent = await savedAfter(page, () => auto.getByLabel("WebP").check());
        sent = await savedAfter(page, () => auto.getByLabel("AVIF").uncheck());
        assert.deepEqual(sent.formats, ["jpeg", "webp"]);
        await page.getByTestId("settings-summary").getByText("smallest of WebP, JPEG").waitFor();

        await upload(page, [fields]);
        await waitForCompleted(page, 1);
        const { jobs } = await (await page.request.get("/api/jobs")).json();
        const job = jobs[0];
        assert.deepEqual([job.settings.format, job.formatChoice.format], ["auto", job.format]);
        const label = { webp: "WebP", jpeg: "JPEG" } as Record<string, string>;
        const line = page.getByTestId("job-format-choice");
        const text = await line.textContent();
        assert.match(
          text ?? "",
          new RegExp(`^${label[job.format]} chosen: \\d+% smaller than ${label[job.formatChoice.against]}$`),
        );
        const saved = Math.round((1 - job.compressedSize / job.formatChoice.againstBytes) * 100);
        assert.ok(text!.includes(`${saved}%`), `${text} says ${saved}%`);
        await page.context().close();
      },
    );
  }
});

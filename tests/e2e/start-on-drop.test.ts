/** Start on drop (issue 24 item 3): picked or dropped files compress at once, the quota checked first. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { e2eSuite } from "./harness.ts";
import {
  countUploads,
  fileInput,
  openSettings,
  photo,
  signUpAndOpen,
  upload,
  waitForCompleted,
} from "./compressor-helpers.ts";

const serverJobs = (page: Page) =>
  page.evaluate(async () => (await (await fetch("/api/jobs")).json()).jobs as { filename: string; quality: number }[]);

e2eSuite(
  "files start compressing as soon as they are picked or dropped (issue 24 item 3)",
  async ({ newPage, step }) => {
    for (const [width, height] of [[1280, 800], [375, 812]] as const) {
      await step(
        `at ${width}×${height} a picked file is sent with the current settings and no further click`,
        async () => {
          const page = await newPage();
          await page.setViewportSize({ width, height });
          await signUpAndOpen(page, `starter${width}`);
          // The current settings: quality 70 instead of the default 80.
          await openSettings(page);
          const quality = page.getByLabel("Quality", { exact: true });
          await quality.focus();
          for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowLeft");
          assert.equal(await quality.inputValue(), "70");
          const uploads = countUploads(page);
          const sent = page.waitForRequest((r) =>
            r.method() === "POST" && new URL(r.url()).pathname === "/api/compress"
          );
          await fileInput(page).setInputFiles([photo("at-once.jpg")]);
          await sent;
          await page.getByText("Upload successful", { exact: true }).waitFor();
          await page.getByTestId("job-card").filter({ hasText: "at-once.jpg" }).waitFor();
          assert.equal(uploads.requests, 1);
          const [job] = await serverJobs(page);
          assert.equal(job?.quality, 70, "sent with the settings in the panel");
          // Nothing is left to send: no "Upload N images" button, an empty selection.
          assert.equal(await page.getByTestId("upload-button").count(), 0);
          assert.equal(await page.getByTestId("selected-count").textContent(), "0 / 20");
          await waitForCompleted(page, 1);

          // Dropped files start the same way.
          const dropped = page.waitForRequest((r) =>
            r.method() === "POST" && new URL(r.url()).pathname === "/api/compress"
          );
          await page.evaluate(async (b64) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const dt = new DataTransfer();
            dt.items.add(new File([bytes], "dropped.jpg", { type: "image/jpeg" }));
            const zone = document.querySelector('[data-testid="dropzone"]')!;
            for (const type of ["dragenter", "dragover", "drop"]) {
              zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
            }
            await Promise.resolve();
          }, photo("x").buffer.toString("base64"));
          await dropped;
          await page.getByTestId("job-card").filter({ hasText: "dropped.jpg" }).waitFor();
          assert.equal(uploads.requests, 2);
          await page.context().close();
        },
      );
    }

    for (const [width, height] of [[1280, 800], [375, 812]] as const) {
      await step(`at ${width}×${height} past today's quota the notice shows and nothing over it is sent`, async () => {
        const page = await newPage();
        await page.setViewportSize({ width, height });
        await signUpAndOpen(page, `quotastart${width}`);
        await upload(page, Array.from({ length: 9 }, (_, i) => photo(`early-${i}.jpg`)));
        await page.getByTestId("usage-count").filter({ hasText: "9 / 10" }).waitFor();

        // One left today: of three picked, one is sent at once, two stay selected and marked.
        const uploads = countUploads(page);
        await fileInput(page).setInputFiles([photo("late-0.jpg"), photo("late-1.jpg"), photo("late-2.jpg")]);
        await page.getByText("Upload successful", { exact: true }).waitFor();
        await page.getByText("1 file(s) uploaded and queued for compression", { exact: true }).waitFor();
        const notice = page.getByTestId("quota-notice");
        await notice.getByText("Daily limit reached: 10 of 10 free compressions used today.").waitFor();
        await notice.getByText("2 files are over the limit and will not be sent.", { exact: false }).waitFor();
        assert.equal(await page.getByTestId("over-quota").count(), 2);
        assert.equal(await page.getByTestId("selected-count").textContent(), "2 / 20");
        await page.getByTestId("upload-button").filter({ hasText: "Compress 0 of 2" }).waitFor();
        assert.ok(await page.getByTestId("upload-button").isDisabled());
        assert.equal(uploads.requests, 1);
        const late = (await serverJobs(page)).filter((j) => j.filename.startsWith("late-")).map((j) => j.filename);
        assert.deepEqual(late, ["late-0.jpg"]);

        // With nothing left, a new pick sends nothing: the spec's notice, the files kept and marked.
        await fileInput(page).setInputFiles([photo("later.jpg")]);
        await page.getByText("Today's free compressions are used up; upgrade to Premium to compress these now", {
          exact: true,
        }).waitFor();
        assert.equal(await page.getByTestId("selected-count").textContent(), "3 / 20");
        assert.equal(await page.getByTestId("over-quota").count(), 3);
        await page.waitForTimeout(300);
        assert.equal(uploads.requests, 1, "nothing over the quota was sent");
        assert.equal((await serverJobs(page)).length, 10);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.ok(overflow <= 0, `no sideways scroll at ${width} px (${overflow})`);
        await page.context().close();
      });
    }
  },
);

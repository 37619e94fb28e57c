/**
 * Web sets in Chromium (issue 30, items 5 and 6): the settings panel's section (Premium; disabled with an
 * upgrade link on the free plan), the card's files, page weight, "Copy HTML" with its `sizes`, and the ZIP.
 */
import assert from "node:assert/strict";
import { OUTPUT_FORMATS } from "../../contract/formats.ts";
import { unzipSync } from "fflate";
import type { Page } from "playwright-core";
import { e2eSuite } from "./harness.ts";
import { settledBox } from "./layout.ts";
import { openSettings, photo, savedAfter, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";

/** Free → Subscribe Now → the local test checkout → Pay → back on the compressor as Premium. */
async function becomePremium(page: Page): Promise<void> {
  await page.goto("/subscribe");
  await page.getByRole("button", { name: "Subscribe Now" }).click();
  await page.waitForURL((u) => u.pathname.startsWith("/billing/test-checkout/"));
  await page.getByRole("button", { name: "Pay" }).click();
  await page.getByTestId("premium-active").waitFor();
  await page.waitForURL((u) => u.pathname === "/");
  await page.getByRole("heading", { name: "Processing Queue" }).waitFor();
}

const summaryText = async (page: Page) => (await page.getByTestId("settings-summary").textContent()) ?? "";

/** A formatted size ("2.1 KB", "812 B") back in bytes, roughly. */
const bytesOf = (text: string) => {
  const m = /^([\d.]+) (B|KB|MB)$/.exec(text.trim());
  assert.ok(m, `a size: "${text}"`);
  return Number(m[1]) * { B: 1, KB: 1024, MB: 1024 * 1024 }[m[2] as "B" | "KB" | "MB"];
};

e2eSuite("web sets in the browser", async ({ server, newPage, step }) => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 812 }]) {
    await step(
      `at ${viewport.width} px: free sees the set disabled; Premium turns it on, uploads, copies the HTML and downloads the ZIP`,
      async () => {
        const page = await newPage();
        await page.setViewportSize(viewport);
        await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
        await signUpAndOpen(page, `sets${viewport.width}`);

        // Free: the section is there, disabled, with the upgrade link.
        await openSettings(page);
        const section = page.getByTestId("web-set-fields");
        const toggle = section.getByLabel("Make a responsive set");
        assert.ok(await toggle.isDisabled(), "free users cannot turn a set on");
        assert.equal(await toggle.isChecked(), false);
        await section.getByText("Premium", { exact: true }).waitFor();
        await section.getByRole("link", { name: "Upgrade to Premium" }).waitFor();
        assert.doesNotMatch(await summaryText(page), /web set/);

        await becomePremium(page);
        await openSettings(page);
        assert.ok(await toggle.isEnabled());
        assert.equal(await section.getByRole("link", { name: "Upgrade to Premium" }).count(), 0);
        await section.getByText(
          "One upload → each width × format at SSIMULACRA 2 ≥ 80, with the <picture> markup; counts as one compression",
        ).waitFor();

        // On: the four default widths and AVIF + JPEG, saved and summed up.
        let sent = await savedAfter(page, () => toggle.check());
        assert.deepEqual([sent.widths, sent.formats], [[640, 1280, 1920, 2560], ["avif", "jpeg"]]);
        assert.equal(await summaryText(page), "Auto quality · web set: 4 widths × AVIF, JPEG · metadata stripped");
        const widths = section.getByRole("group", { name: /Widths/ });
        const formats = section.getByRole("group", { name: "Formats" });
        assert.equal(
          await formats.getByRole("checkbox").count(),
          OUTPUT_FORMATS.length,
          "every format of the manifest",
        );
        sent = await savedAfter(page, () => widths.getByLabel("2560", { exact: true }).uncheck());
        assert.deepEqual(sent.widths, [640, 1280, 1920]);
        sent = await savedAfter(page, () => formats.getByLabel("WebP", { exact: true }).check());
        assert.deepEqual(sent.formats, ["avif", "jpeg", "webp"]);
        sent = await savedAfter(page, () => formats.getByLabel("AVIF", { exact: true }).uncheck());
        assert.deepEqual(sent.formats, ["jpeg", "webp"]);
        sent = await savedAfter(page, () => formats.getByLabel("JPEG", { exact: true }).uncheck());
        assert.deepEqual(sent.formats, ["webp"]);
        assert.ok(await formats.getByLabel("WebP", { exact: true }).isDisabled(), "the last format stays checked");
        sent = await savedAfter(page, () => formats.getByLabel("JPEG", { exact: true }).check());
        assert.deepEqual(sent.formats, ["webp", "jpeg"]);
        assert.equal(await summaryText(page), "Auto quality · web set: 3 widths × WebP, JPEG · metadata stripped");

        // Widths the 128×96 fixture can take, saved through the API as the CLI or another tab would.
        const { settings } = await (await page.request.get("/api/settings")).json();
        const put = await page.request.put("/api/settings", { data: { ...settings, widths: [64, 100] } });
        assert.equal(put.status(), 200, await put.text());
        await page.reload();
        await openSettings(page);
        assert.ok(await widths.getByLabel("64", { exact: true }).isChecked());
        assert.ok(await widths.getByLabel("100", { exact: true }).isChecked());
        assert.equal(await widths.getByLabel("640", { exact: true }).isChecked(), false);
        assert.equal(await summaryText(page), "Auto quality · web set: 2 widths × WebP, JPEG · metadata stripped");

        // One upload → one job whose card lists the set.
        await upload(page, [photo("beach.jpg")]);
        await waitForCompleted(page, 1, 120_000);
        const { jobs } = await (await page.request.get("/api/jobs")).json();
        assert.equal(jobs.length, 1, "one job for the set");
        const card = page.getByTestId("job-card");
        const rows = card.getByTestId("set-file");
        assert.equal(await rows.count(), 4);
        const cells = await rows.evaluateAll((trs) =>
          trs.map((tr) =>
            ["name", "format", "pixels", "size", "score"].map((col) =>
              tr.querySelector(`[data-testid="set-file-${col}"]`)?.textContent ?? ""
            )
          )
        );
        assert.deepEqual(cells.map((c) => c.slice(0, 3)), [
          ["beach-64.webp", "WebP", "64×48"],
          ["beach-100.webp", "WebP", "100×75"],
          ["beach-64.jpg", "JPEG", "64×48"],
          ["beach-100.jpg", "JPEG", "100×75"],
        ]);
        for (const [file, , , size, score] of cells) {
          assert.ok(bytesOf(size!) > 0, `${file}: ${size}`);
          const m = /^(\d+) · (.+)$/.exec(score!);
          assert.ok(m && Number(m[1]) >= 80, `${file} scored "${score}"`);
          assert.match(m[2]!, /^(Very Good|Excellent|Lossless)$/);
        }
        assert.equal(await card.getByRole("button", { name: /^Compare / }).count(), 0, "no one image to compare");
        const weight = (await card.getByTestId("set-page-weight").textContent()) ?? "";
        assert.match(
          weight,
          /^Phone \(100 px, WebP\): [\d.]+ (B|KB) instead of [\d.]+ KB · Desktop \(100 px, WebP\): /,
        );
        const webp100 = jobs[0].webSet.files.find((f: { file: string }) => f.file === "beach-100.webp");
        // The batch's savings count the file a desktop loads, not the ZIP, and say what a set loads.
        const review = (await page.getByTestId("review-summary").textContent()) ?? "";
        const percent = Math.round(((jobs[0].originalSize - webp100.bytes) / jobs[0].originalSize) * 100);
        assert.ok(jobs[0].compressedSize > webp100.bytes, "the ZIP weighs more than the desktop's file");
        assert.match(review, /^Saved .+ across 1 image · lowest score \d+ \(.+\) · set: phone .+, desktop .+$/);
        assert.ok(review.includes(` (${percent}%) across 1 image`), `${review}: ${percent}% saved`);

        // Copy HTML with the sizes edited.
        await card.getByLabel(/sizes/).fill("50vw");
        await card.getByRole("button", { name: "Copy HTML of beach.jpg" }).click();
        await page.getByText("HTML copied", { exact: true }).waitFor();
        const html = await page.evaluate(() => navigator.clipboard.readText());
        assert.match(html, /^<picture>\n/);
        assert.ok(
          html.includes('<source type="image/webp" srcset="beach-64.webp 64w, beach-100.webp 100w" sizes="50vw">'),
          html,
        );
        assert.ok(html.includes('<img src="beach-100.jpg" srcset="beach-64.jpg 64w, beach-100.jpg 100w" sizes="50vw"'));
        assert.ok(html.includes('width="100" height="75" alt="" loading="lazy" decoding="async">'), html);

        // Download gives the set's ZIP under the photo's name.
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          card.getByRole("button", { name: "Download beach.jpg" }).click(),
        ]);
        assert.equal(download.suggestedFilename(), "beach.zip");
        const zip = unzipSync(await Deno.readFile((await download.path())!));
        assert.deepEqual(Object.keys(zip).sort(), [
          "beach/beach-100.jpg",
          "beach/beach-100.webp",
          "beach/beach-64.jpg",
          "beach/beach-64.webp",
          "beach/manifest.json",
          "beach/picture.html",
        ]);

        // Tidy at this width: nothing wider than the window, the file table within the card.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
        const table = card.getByTestId("web-set").locator("table");
        const tableBox = await settledBox(table);
        const cardBox = await settledBox(card);
        assert.ok(tableBox.x + tableBox.width <= cardBox.x + cardBox.width, "the table fits in the card");
        await page.context().close();
      },
    );
  }

  await step("a free user's saved widths (a plan that ended) are not sent: the upload makes one output", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "setsfree");
    const { settings } = await (await page.request.get("/api/settings")).json();
    const put = await page.request.put("/api/settings", { data: { ...settings, widths: [64, 100] } });
    assert.equal(put.status(), 200, await put.text());
    await page.reload();
    await openSettings(page);
    assert.equal(await page.getByTestId("web-set-fields").getByLabel("Make a responsive set").isChecked(), false);
    assert.doesNotMatch(await summaryText(page), /web set/);
    // Sent, the server would refuse the upload (403 "widths: web sets are a Premium feature").
    await upload(page, [photo("free.jpg")]);
    await waitForCompleted(page, 1);
    const { jobs } = await (await page.request.get("/api/jobs")).json();
    assert.deepEqual([jobs[0].status, jobs[0].webSet, jobs[0].settings.widths], ["completed", null, null]);
    assert.equal(await page.getByTestId("web-set").count(), 0);
    await page.context().close();
  });
});

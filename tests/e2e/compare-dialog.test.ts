/** Compare where the eyes are (issue 24 item 2): a modal dialog near the top, zoom around the pointer, hold to flip. */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { e2eSuite } from "./harness.ts";
import { settledBox } from "./layout.ts";
import { bigPhotoBytes, signUpAndOpen, upload, type UploadFile, waitForCompleted } from "./compressor-helpers.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url);
const fixtureFile = (name: string): UploadFile => ({
  name,
  mimeType: "image/jpeg",
  buffer: Buffer.from(Deno.readFileSync(new URL(name, FIXTURES))),
});

const zoomValue = async (page: Page) => Number.parseInt((await page.getByTestId("zoom-value").textContent())!);

/** Opens Compare on the only job; resolves to the dialog once its compressed image has loaded. */
async function openCompare(page: Page) {
  const opener = page.getByRole("button", { name: /^Compare / });
  await opener.click();
  const dialog = page.getByTestId("compare-dialog");
  await dialog.waitFor();
  await page.waitForFunction(() => {
    const i = document.querySelector<HTMLImageElement>('[data-testid="compare-frame"] img[alt="Compressed"]');
    return i?.complete && i.naturalWidth > 0;
  });
  return dialog;
}

e2eSuite("Compare opens as a dialog where the eyes are (issue 24 item 2)", async ({ server, newPage, step }) => {
  for (const [width, height] of [[1280, 800], [375, 812]] as const) {
    await step(
      `at ${width}×${height} Compare opens near the top, keeps focus, zooms at the pointer, flips while held and closes with Esc`,
      async () => {
        const page = await newPage();
        await page.setViewportSize({ width, height });
        await signUpAndOpen(page, `eyes${width}`);
        // A photo larger than the frame, so there is room to zoom in at Fit.
        await upload(page, [{
          name: "big-photo.jpg",
          mimeType: "image/jpeg",
          buffer: Buffer.from(await bigPhotoBytes()),
        }]);
        await waitForCompleted(page, 1);
        // Scrolled down the page first: the dialog still opens at the top of the window.
        await page.getByRole("button", { name: /^Compare / }).scrollIntoViewIfNeeded();
        const dialog = await openCompare(page);

        // A modal <dialog>, its top in the first quarter of the viewport.
        assert.ok(await dialog.evaluate((d) => (d as HTMLDialogElement).open && d.matches(":modal")), "a modal dialog");
        const box = await settledBox(dialog);
        assert.ok(box.y >= 0 && box.y <= height / 4, `the dialog's top (${box.y}) is in the first quarter`);
        assert.ok(box.x >= 0 && box.x + box.width <= width + 0.5, `the dialog fits across (${JSON.stringify(box)})`);

        // Focus is inside and stays inside however far Tab goes.
        const inside = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="compare-dialog"]'));
        assert.ok(await inside(), "focus moved into the dialog");
        for (let i = 0; i < 30; i++) {
          await page.keyboard.press("Tab");
          assert.ok(await inside(), `focus is still inside after ${i + 1} Tab presses`);
        }
        for (let i = 0; i < 5; i++) {
          await page.keyboard.press("Shift+Tab");
          assert.ok(await inside(), `focus is still inside after ${i + 1} Shift+Tab presses`);
        }

        // The wheel zooms one 25% step per notch around the pointer: the image point under it stays put.
        const frame = dialog.getByTestId("compare-frame");
        const img = frame.locator('img[alt="Compressed"]');
        await frame.evaluate((el) => el.scrollIntoView({ block: "center" }));
        const fb = await settledBox(frame);
        const px = fb.x + fb.width * 0.3;
        const py = fb.y + fb.height * 0.3;
        await page.mouse.move(px, py);
        const before = await zoomValue(page);
        const ib0 = await settledBox(img);
        const u0 = { x: (px - ib0.x) / ib0.width, y: (py - ib0.y) / ib0.height };
        await page.mouse.wheel(0, -100);
        const hit = await page.evaluate(([x, y]) => {
          const el = document.elementFromPoint(x!, y!);
          return `${el?.tagName} ${el?.getAttribute("data-testid")} ${el?.getAttribute("alt")}`;
        }, [px, py]);
        assert.match(hit, /^(DIV compare-frame|IMG)/, "the pointer is over the frame");
        await page.waitForFunction((b) => {
          const v = Number.parseInt(document.querySelector('[data-testid="zoom-value"]')?.textContent ?? "");
          return v > b;
        }, before);
        const after = await zoomValue(page);
        assert.equal(after % 25, 0, `the wheel lands on a 25% step (${before}% → ${after}%)`);
        const ib1 = await settledBox(img);
        assert.ok(ib1.width > ib0.width, "the image is drawn larger");
        const u1 = { x: (px - ib1.x) / ib1.width, y: (py - ib1.y) / ib1.height };
        assert.ok(
          Math.abs(u1.x - u0.x) < 0.01 && Math.abs(u1.y - u0.y) < 0.01,
          `the point under the pointer stays (${JSON.stringify(u0)} → ${JSON.stringify(u1)})`,
        );
        // The page behind did not scroll with the wheel.
        await page.mouse.wheel(0, 100);
        await page.waitForFunction((a) => {
          const v = Number.parseInt(document.querySelector('[data-testid="zoom-value"]')?.textContent ?? "");
          return v < a;
        }, after);

        // Holding the button flips to the original; letting go shows the result again.
        const hold = dialog.getByRole("button", { name: "Hold to see original" });
        await hold.scrollIntoViewIfNeeded();
        const held = frame.getByTestId("held-original");
        assert.equal(await held.count(), 0);
        await hold.hover();
        await page.mouse.down();
        await held.waitFor();
        assert.equal(await held.locator("img").getAttribute("alt"), "Original (held)");
        assert.equal(await hold.getAttribute("aria-pressed"), "true");
        await page.mouse.up();
        await held.waitFor({ state: "detached" });
        // And the space bar, held anywhere that is not a control of its own.
        await frame.focus();
        await page.keyboard.down(" ");
        await held.waitFor();
        await page.keyboard.up(" ");
        await held.waitFor({ state: "detached" });

        // Overlay: an opacity slider and labels, the result's with its size and SSIMULACRA 2 score.
        await dialog.getByRole("tab", { name: "Overlay" }).click();
        const opacity = dialog.getByLabel("Compressed opacity");
        await opacity.waitFor();
        await opacity.fill("80");
        const compressed = dialog.locator('[data-testid="compare-frame"] img[alt="Compressed"]');
        assert.equal(await compressed.evaluate((i) => getComputedStyle(i).opacity), "0.8");
        const [job] = await page.evaluate(async () => (await (await fetch("/api/jobs")).json()).jobs);
        const label = (await dialog.getByTestId("overlay-compressed-label").textContent())!;
        assert.match(label, /^Compressed · [\d.]+ (B|KB|MB) · \d+\.\d$/);
        assert.ok(label.endsWith(` · ${job.scores.ssimulacra2.toFixed(1)}`), `${label} shows SSIMULACRA 2`);
        await dialog.getByTestId("compare-frame").getByText("Original", { exact: true }).waitFor();

        // Esc closes it and focus goes back to the button that opened it.
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });
        const focused = await page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
        assert.equal(focused, "Compare big-photo.jpg", "focus is back on the opener");
        await page.context().close();
      },
    );
  }

  await step("1:1 puts one image pixel on one device pixel at devicePixelRatio 2", async () => {
    // A context with a 2× screen (the harness's pages are 1×).
    const first = await newPage();
    const browser = first.context().browser()!;
    await first.context().close();
    const context = await browser.newContext({
      baseURL: server.url,
      deviceScaleFactor: 2,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    assert.equal(await page.evaluate(() => devicePixelRatio), 2);
    await signUpAndOpen(page, "retina");
    await upload(page, [fixtureFile("sampling-444.jpg")]);
    await waitForCompleted(page, 1);
    const dialog = await openCompare(page);
    const img = dialog.getByTestId("compare-frame").locator('img[alt="Compressed"]');
    const naturalWidth = await img.evaluate((i) => (i as HTMLImageElement).naturalWidth);
    await dialog.getByRole("button", { name: "1:1" }).click();
    assert.equal(await dialog.getByTestId("zoom-value").textContent(), "100%");
    const drawn = await settledBox(img);
    assert.ok(
      Math.abs(drawn.width * 2 - naturalWidth) < 1.5,
      `1:1 draws ${naturalWidth} image px on ${drawn.width * 2} device px`,
    );
    // Fit reads the scale on device pixels too.
    await dialog.getByRole("button", { name: "Fit" }).click();
    const frameBox = await settledBox(dialog.getByTestId("compare-frame"));
    assert.equal(
      await dialog.getByTestId("zoom-value").textContent(),
      `${Math.round(((frameBox.width * 2) / naturalWidth) * 100)}%`,
    );
    await context.close();
  });
});

/**
 * Issue 15, the compressor's second pass, in Chromium: the landing page's drop target and the
 * upload right after sign-up, the first screen, keyboard and reader, and errors where they happen.
 * Figures the issue asks for are printed as `[figure] …` lines.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { COOKIE_CONSENT_KEY } from "../../contract/ads.ts";
import { e2eSuite } from "./harness.ts";
import { dragFiles, fileInput, photo, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";

const figure = (text: string) => console.log(`[figure] ${text}`);

const jpeg = (name: string, size = 5000) => ({ name, type: "image/jpeg", size });

/** Top of the first job card, in the window's coordinates. */
const firstCardTop = (page: Page) =>
  page.getByTestId("job-card").first().evaluate((el) => el.getBoundingClientRect().top);

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

e2eSuite("the compressor's second pass (issue 15) in the browser", async ({ newPage, step }) => {
  await step(
    "[1] the landing hero is a drop target: drag-over state, and non-JPEGs get the spec's notice",
    async () => {
      const page = await newPage();
      await page.addInitScript((key) => localStorage.setItem(key, "declined"), COOKIE_CONSENT_KEY);
      await page.goto("/");
      await page.waitForLoadState("networkidle");
      const hero = page.getByTestId("landing-dropzone");
      await dragFiles(page, [jpeg("a.jpg")], "drag", "landing-dropzone");
      assert.equal(await hero.getAttribute("data-drag"), "valid");
      await hero.getByText("Drop your JPEGs to compress them").waitFor();
      await hero.dispatchEvent("dragleave");
      assert.equal(await hero.getAttribute("data-drag"), "idle");
      await dragFiles(page, [{ name: "shot.png", type: "image/png", size: 10 }], "drag", "landing-dropzone");
      assert.equal(await hero.getAttribute("data-drag"), "invalid");
      await hero.getByText("Invalid file type or size").waitFor();
      await hero.dispatchEvent("dragleave");

      assert.ok(await dragFiles(page, [{ name: "shot.png", type: "image/png", size: 10 }], "drop", "landing-dropzone"));
      await page.getByText("No valid files", { exact: true }).waitFor();
      assert.equal(await page.getByTestId("landing-problem").textContent(), "Please select JPEG images under 10MB");
      assert.equal(new URL(page.url()).pathname, "/");
      await page.context().close();
    },
  );

  await step(
    "[1] files dropped on the landing page wait through sign-up, then upload and compress at once with the saved settings",
    async () => {
      const page = await newPage();
      await page.addInitScript((key) => localStorage.setItem(key, "declined"), COOKIE_CONSENT_KEY);
      await page.goto("/");
      await page.waitForLoadState("networkidle");
      let clicks = 0;
      // A PNG among the photos is left behind with the spec's notice; the JPEGs go on.
      await page.locator("#landing-files").setInputFiles([
        photo("from-landing-1.jpg"),
        photo("from-landing-2.jpg"),
        { name: "screenshot.png", mimeType: "image/png", buffer: photo("x").buffer },
      ]);
      clicks++; // "Upload Images" opens the file picker
      await page.waitForURL((u) => u.pathname === "/auth");
      await page.getByText("Invalid file types detected", { exact: true }).waitFor();
      await page.getByTestId("waiting-files").getByText("Your 2 photos are waiting").waitFor();
      assert.equal(await page.getByRole("tab", { name: "Sign Up" }).getAttribute("aria-selected"), "true");
      // Sign In is one click away, and back.
      await page.getByRole("tab", { name: "Sign In" }).click();
      await page.locator("#login-username").waitFor();
      await page.getByRole("tab", { name: "Sign Up" }).click();

      await page.locator("#register-username").fill("visitor");
      await page.locator("#register-password").fill("correct horse");
      await page.getByRole("button", { name: "Create Account" }).click();
      clicks++;
      await page.waitForURL((u) => u.pathname === "/");
      await page.getByText("Your 2 photos are compressing", { exact: true }).waitFor();
      await page.getByText("uploaded with your saved settings: Quality 80 · JPEG · metadata stripped", {
        exact: false,
      }).first().waitFor();
      await waitForCompleted(page, 2);
      assert.equal(await page.getByTestId("selected-count").textContent(), "0 / 20");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: /^Download from-landing-\d\.jpg$/ }).first().click(),
      ]);
      clicks++;
      assert.match(download.suggestedFilename(), /^from-landing-\d\.jpg$/);
      figure(`clicks from the landing page to the first downloaded result: ${clicks} (plus 2 typed fields)`);
      assert.equal(clicks, 3);
      // Uploaded once: after a reload nothing is pending any more.
      await page.reload();
      await page.getByRole("heading", { name: "Processing Queue" }).waitFor();
      await page.waitForLoadState("networkidle");
      assert.equal(await page.getByTestId("job-card").count(), 2);
      await page.context().close();
    },
  );

  for (const [width, height] of [[1280, 800], [375, 812]] as const) {
    await step(
      `[2] at ${width}×${height} the first screen holds the drop zone, the settings summary and the results`,
      async () => {
        const page = await newPage();
        await page.setViewportSize({ width, height });
        await signUpAndOpen(page, `firstscreen${width}`);
        const inView = async (testIdOrSelector: string) => {
          const box = await page.locator(testIdOrSelector).first().boundingBox();
          assert.ok(box, testIdOrSelector);
          return box.y >= 0 && box.y + Math.min(box.height, 40) <= height;
        };
        assert.ok(await inView('[data-testid="dropzone"]'), "the drop zone is on the first screen");
        assert.ok(await inView('[data-testid="settings-summary"]'), "the summary is on the first screen");
        assert.ok(await inView("#results h2"), "the results heading is on the first screen");
        assert.equal(
          await page.getByTestId("settings-summary").textContent(),
          "Quality 80 · JPEG · metadata stripped",
        );
        // The info banner is one sentence.
        const banner = await page.getByRole("region", { name: "About the compression" }).locator("p").allTextContents();
        assert.equal(banner.length, 1);
        assert.equal(banner[0]!.trim().split(/[.!?](\s|$)/).filter((s) => s.trim()).length, 1, banner[0]);

        await upload(page, Array.from({ length: 10 }, (_, i) => photo(`shot-${i}.jpg`)));
        await page.getByTestId("job-card").first().waitFor();
        const top = await firstCardTop(page);
        figure(`${width}×${height}: first job card after uploading 10 images at y = ${Math.round(top)}`);
        assert.ok(top >= 0 && top < height - 100, `the first job card is in view (y = ${top})`);
        await waitForCompleted(page, 10);
        const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
        figure(`${width}×${height}: compressor page height with 10 jobs = ${pageHeight}px`);

        // Change opens the full panel in place; Done folds it again.
        await page.getByRole("button", { name: "Change", exact: true }).click();
        await page.getByTestId("settings-panel").getByLabel("Quality", { exact: true }).waitFor();
        await page.getByRole("button", { name: "Done", exact: true }).click();
        await page.getByTestId("settings-panel").waitFor({ state: "detached" });
        await page.context().close();
      },
    );
  }

  await step("[12] a skip link leads to the compressor; the hidden file input is not a second button", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "keyboarder");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to the compressor" });
    assert.ok(await skip.evaluate((el) => el === document.activeElement), "the skip link is the first Tab stop");
    assert.ok((await skip.boundingBox())!.width > 1, "it shows when focused");
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "compressor");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Select images");

    // One button to pick files: the input itself is out of the accessibility tree.
    assert.equal(await page.getByRole("button", { name: "Choose JPEG images" }).count(), 0);
    assert.equal(await page.getByRole("button", { name: "Select images" }).count(), 1);
    assert.equal(await fileInput(page).evaluate((el) => getComputedStyle(el).display), "none");

    // Visible labels are part of the accessible names (WCAG 2.5.3).
    await upload(page, [photo("named.jpg")]);
    await waitForCompleted(page, 1);
    await page.getByRole("button", { name: /^Compare / }).click();
    await page.getByRole("button", { name: /^Hide compare / }).waitFor();
    const mismatched = await page.evaluate(() =>
      [...document.querySelectorAll("main button, main a, main [role=tab]")].filter((el) => {
        const name = el.getAttribute("aria-label");
        const text = (el.textContent ?? "").replace(/\s+/g, " ").trim();
        if (!name || !/[a-z]{2}/i.test(text)) return false;
        return !name.toLowerCase().includes(text.toLowerCase());
      }).map((el) => `${el.getAttribute("aria-label")} / ${el.textContent}`)
    );
    assert.deepEqual(mismatched, []);
    await page.context().close();
  });

  await step("[10] files dropped anywhere on the compressor page are taken; the browser stays", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "anywhere");
    const taken = await dragFiles(page, [jpeg("far-away.jpg")], "drop");
    assert.ok(taken, "the page prevented the browser's own drop (navigating to the file)");
    assert.equal(await page.getByTestId("selected-count").textContent(), "1 / 20");
    // While files are over the page, the drop zone says they can be dropped anywhere.
    await dragFiles(page, [jpeg("hover.jpg")], "drag");
    await page.getByTestId("dropzone-heading").getByText("Drop the images anywhere on this page").waitFor();
    await page.evaluate(() =>
      document.body.dispatchEvent(new DragEvent("dragleave", { bubbles: true, dataTransfer: new DataTransfer() }))
    );
    await page.context().close();
  });

  await step("[10] sign-up shows a message under each field that needs one", async () => {
    const page = await newPage();
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.locator("#register-username").fill("x!");
    await page.locator("#register-email").fill("not-an-email");
    await page.locator("#register-password").fill("short");
    await page.getByRole("button", { name: "Create Account" }).click();
    const error = (id: string) => page.locator(`#${id}-error`).textContent();
    assert.match((await error("register-username")) ?? "", /^Username must be 3-32 characters/);
    assert.match((await error("register-email")) ?? "", /^Email must be a valid email address/);
    assert.match((await error("register-password")) ?? "", /^Password must be 8-256 characters/);
    assert.equal(await page.locator("#register-username").getAttribute("aria-invalid"), "true");
    // Editing a field clears its message.
    await page.locator("#register-username").fill("ada2");
    assert.equal(await page.locator("#register-username-error").count(), 0);

    // A taken username is reported under the username.
    const res = await page.request.post("/api/register", { data: { username: "taken", password: "correct horse" } });
    assert.ok(res.ok());
    await page.context().clearCookies();
    await page.locator("#register-username").fill("taken");
    await page.locator("#register-email").fill("");
    await page.locator("#register-password").fill("correct horse");
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.locator("#register-username-error").getByText("already taken", { exact: false }).waitFor();
    await page.context().close();
  });

  for (const [width, height] of [[1280, 800], [375, 812]] as const) {
    await step(
      `[10] at ${width} px a notice covers neither the cookie banner's buttons nor the upload button`,
      async () => {
        const page = await newPage();
        await page.setViewportSize({ width, height });
        const res = await page.request.post("/api/register", {
          data: { username: `toasty${width}`, password: "correct horse" },
        });
        assert.ok(res.ok());
        await page.goto("/");
        const banner = page.getByTestId("cookie-banner");
        await banner.waitFor();
        const bannerBox = (await banner.boundingBox())!;
        assert.ok(bannerBox.height <= (width < 640 ? 90 : 60), `a slim banner (${bannerBox.height}px)`);
        await fileInput(page).setInputFiles([photo("one.jpg")]);
        await dragFiles(page, [{ name: "nope.png", type: "image/png", size: 10 }], "drop", "dropzone");
        const toast = page.locator("li[data-variant]").first();
        await toast.waitFor();
        const toastBox = (await toast.boundingBox())!;
        const guarded = [
          ...await banner.getByRole("button").all(),
          page.getByRole("button", { name: "Upload 1 image" }),
        ];
        for (const control of guarded) {
          const box = (await control.boundingBox())!;
          assert.ok(!overlaps(toastBox, box), `the notice ${JSON.stringify(toastBox)} covers ${JSON.stringify(box)}`);
        }
        await page.context().close();
      },
    );
  }
});

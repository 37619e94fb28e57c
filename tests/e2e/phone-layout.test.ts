/**
 * Phone layout at 375×812 (issue 24, item 6): after a result, "Download all" and (free) "Upgrade" stay on
 * the first screen in the action bar; a notice covers neither the header's controls nor the action bar;
 * the cookie banner does not cover the action bar; the article filters are one select; an article page
 * keeps "Sign In". Plus the versions' counting in the browser (issue 24, item 4): after re-compressing,
 * the summary still counts one image per photo and Download all holds one entry per photo.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { unzipSync } from "fflate";
import { e2eSuite } from "./harness.ts";
import { type Box, boxesInOneFrame, overlaps as intersects, settledBox } from "./layout.ts";
import { photo, upload } from "./compressor-helpers.ts";

const VIEWPORT = { width: 375, height: 812 };

/** The element's box once it is visible and still (tests/e2e/layout.ts). */
const box = (locator: Locator): Promise<Box> => settledBox(locator);

const inFirstScreen = (b: Box) => b.y >= 0 && b.y + b.height <= VIEWPORT.height && b.x >= 0 && b.x + b.width <= 375;

/** A free user, signed up through the API, on the compressor; the cookie banner is left to show. */
async function openAsFreeUser(page: Page, username: string): Promise<void> {
  await page.setViewportSize(VIEWPORT);
  const res = await page.request.post("/api/register", {
    data: { username, password: "correct horse", firstName: "Phone", lastName: "User" },
  });
  assert.ok(res.ok(), await res.text());
  await page.goto("/");
  await page.getByRole("heading", { name: "Processing Queue" }).waitFor();
}

/** Boxes of the header's visible links and buttons. */
async function headerControls(page: Page): Promise<Box[]> {
  const controls = page.locator("header").first().locator("a:visible, button:visible");
  const boxes: Box[] = [];
  for (let i = 0; i < await controls.count(); i++) boxes.push(await box(controls.nth(i)));
  assert.ok(boxes.length > 0, "the header has controls");
  return boxes;
}

e2eSuite("phone layout at 375×812 (issue 24, items 4 and 6)", async ({ newPage, step }) => {
  await step(
    "after a result, Download all and Upgrade are on the first screen, clear of the cookie banner and notices",
    async () => {
      const page = await newPage();
      await openAsFreeUser(page, "phoneuser");
      const banner = page.getByTestId("cookie-banner");
      await banner.waitFor();
      await upload(page, [photo("beach.jpg"), photo("dog.jpg"), photo("cat.jpg")]);
      const bar = page.getByTestId("phone-action-bar");
      await bar.waitFor();
      await page.locator('[data-testid="job-card"][data-status="completed"]').nth(2).waitFor({ timeout: 60_000 });

      // Wherever the page is scrolled, the bar stays within the first 812 px.
      for (const scroll of [0, 600, 100_000]) {
        await page.evaluate((y) => scrollTo(0, y), scroll);
        const download = bar.getByRole("button", { name: /^Download all \(\d+\)$/ });
        const upgrade = bar.getByRole("link", { name: "Upgrade" });
        assert.ok(inFirstScreen(await box(download)), `Download all on the first screen (scrolled ${scroll})`);
        assert.ok(inFirstScreen(await box(upgrade)), `Upgrade on the first screen (scrolled ${scroll})`);
        assert.ok(!intersects(await box(bar), await box(banner)), "the cookie banner does not cover the action bar");
      }
      await page.evaluate(() => scrollTo(0, 0));

      // A notice (re-compressing one image) covers neither the header's controls nor the action bar.
      await page.getByRole("button", { name: "Re-compress beach.jpg with current settings" }).click();
      // The notice closes by itself after a few seconds: its box is read in the page, the frame it is laid out
      // and still (past any entry animation); the controls it is checked against stay.
      const { notice: [noticeBox] } = await boxesInOneFrame(page, {
        notice: { css: "li[data-variant]", hasText: "Re-compressing beach.jpg" },
      });
      for (const control of await headerControls(page)) {
        assert.ok(!intersects(noticeBox!, control), `the notice covers no header control (${JSON.stringify(control)})`);
      }
      assert.ok(!intersects(noticeBox!, await box(bar)), "the notice does not cover the action bar");
      assert.ok(!intersects(noticeBox!, await box(banner)), "the notice does not cover the cookie banner");

      // Versions are counted once (item 4): three photos, one re-compressed, still three images.
      await page.waitForFunction(
        async () => {
          const { jobs } = await (await fetch("/api/jobs")).json();
          return jobs.length === 4 && jobs.every((j: { status: string }) => j.status === "completed");
        },
        undefined,
        { timeout: 60_000, polling: 200 },
      );
      await page.getByTestId("queue-summary").filter({ hasText: "3 of 3 completed" }).waitFor();
      assert.equal(await page.getByTestId("job-card").count(), 3);
      await bar.getByRole("button", { name: "Download all (3)" }).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        bar.getByRole("button", { name: "Download all (3)" }).click(),
      ]);
      const entries = Object.keys(unzipSync(await Deno.readFile((await download.path())!))).sort();
      assert.deepEqual(entries, ["beach.jpg", "cat.jpg", "dog.jpg"], "one entry per photo, no (2)");
      await page.context().close();
    },
  );

  await step("the article list's filters are one select; an article page shows Sign In", async () => {
    const page = await newPage();
    await page.setViewportSize(VIEWPORT);
    await page.goto("/articles");
    // On a phone the 19 chips give way to one select, on the first screen, that filters like them.
    assert.equal(await page.getByRole("navigation", { name: "Categories" }).isVisible(), false);
    const select = page.getByLabel("Category", { exact: true });
    const selectBox = await box(select);
    assert.ok(inFirstScreen(selectBox) && selectBox.width <= VIEWPORT.width, "the select fits the first screen");
    await page.waitForLoadState("networkidle"); // hydrated: the select is React's from here
    const all = await page.getByTestId("article-card").count();
    await select.selectOption("Automation");
    await page.waitForURL((u) => u.searchParams.get("category") === "Automation");
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="article-card"]').length < n, all);
    const shown = await page.getByTestId("article-card").count();
    assert.ok(shown > 0, "some Automation articles");
    assert.equal(await select.inputValue(), "Automation");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `the page itself does not scroll sideways (${overflow})`);
    assert.ok(inFirstScreen(await box(page.locator("header").getByRole("link", { name: "Sign In" }))));

    await page.goto("/article1");
    const signIn = page.locator("header").getByRole("link", { name: "Sign In" });
    await signIn.waitFor();
    assert.ok(inFirstScreen(await box(signIn)), "Sign In on an article page, in the header, on the first screen");
    await page.context().close();
  });
});

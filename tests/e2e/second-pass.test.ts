/**
 * Issue 15, the compressor's second pass, in Chromium: the landing page's drop target and the
 * upload right after sign-up, the first screen, keyboard and reader, and errors where they happen.
 * Figures the issue asks for are printed as `[figure] …` lines.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { COOKIE_CONSENT_KEY } from "../../contract/ads.ts";
import { e2eSuite } from "./harness.ts";
import { waitFor } from "../setup/wait-for.ts";
import { dragFiles, fileInput, fixture, photo, signUpAndOpen, upload, waitForCompleted } from "./compressor-helpers.ts";
import { boxesInOneFrame, overlaps, settledBox } from "./layout.ts";

const fixtureFile = (name: string) => ({ name, mimeType: "image/jpeg", buffer: fixture(name) });

/** The score words' table (ADR 026), written out here so the page is checked against it, not against itself. */
const scoreWordOf = (score: number) =>
  ([[90, "Lossless"], [85, "Excellent"], [80, "Very Good"], [70, "Good"], [50, "Fair"], [30, "Poor"]] as const)
    .find(([min]) => score >= min)?.[1] ?? "Very Poor";

const figure = (text: string) => console.log(`[figure] ${text}`);

const jpeg = (name: string, size = 5000) => ({ name, type: "image/jpeg", size });

/** Top of the first job card, in the window's coordinates. */
const firstCardTop = async (page: Page) => (await settledBox(page.getByTestId("job-card").first())).y;

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

  await step("[1] an existing user signs in instead, one click away, and the files upload the same way", async () => {
    const page = await newPage();
    await page.addInitScript((key) => localStorage.setItem(key, "declined"), COOKIE_CONSENT_KEY);
    const res = await page.request.post("/api/register", {
      data: { username: "returning", password: "correct horse" },
    });
    assert.ok(res.ok());
    await page.context().clearCookies();
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await page.locator("#landing-files").setInputFiles([photo("returning.jpg")]);
    await page.waitForURL((u) => u.pathname === "/auth");
    await page.getByTestId("waiting-files").getByText("Your 1 photo is waiting").waitFor();
    await page.getByRole("button", { name: "I already have an account" }).click();
    await page.locator("#login-username").fill("returning");
    await page.locator("#login-password").fill("correct horse");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.getByText("Your 1 photo is compressing", { exact: true }).waitFor();
    await waitForCompleted(page, 1);
    await page.context().close();
  });

  for (const [width, height] of [[1280, 800], [375, 812]] as const) {
    await step(
      `[2] at ${width}×${height} the first screen holds the drop zone, the settings summary and the results`,
      async () => {
        const page = await newPage();
        await page.setViewportSize({ width, height });
        await signUpAndOpen(page, `firstscreen${width}`);
        const inView = async (testIdOrSelector: string) => {
          const box = await settledBox(page.locator(testIdOrSelector).first());
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
        assert.equal(banner[0]!.trim().split(/[.!?](\s|$)/).filter((s) => s.trim()).length, 1, banner[0]!);

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
    assert.ok((await settledBox(skip)).width > 1, "it shows when focused");
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
    // A dropped file starts uploading at once (issue 24 item 3).
    const sent = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/api/compress");
    const taken = await dragFiles(page, [jpeg("far-away.jpg")], "drop");
    assert.ok(taken, "the page prevented the browser's own drop (navigating to the file)");
    await sent;
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
        const bannerBox = await settledBox(banner);
        assert.ok(bannerBox.height <= (width < 640 ? 90 : 60), `a slim banner (${bannerBox.height}px)`);
        await fileInput(page).setInputFiles([photo("one.jpg")]);
        await dragFiles(page, [{ name: "nope.png", type: "image/png", size: 10 }], "drop", "dropzone");
        // Notices close by themselves after a few seconds: every box is read in the page, in the frame the
        // notices and the controls are all laid out and still.
        const { notices, bannerButtons, select } = await boxesInOneFrame(page, {
          notices: "li[data-variant]",
          bannerButtons: '[data-testid="cookie-banner"] button',
          // Picked files start at once (issue 24 item 3): picking is the upload button now.
          select: { css: "button", hasText: "Select images" },
        });
        assert.ok(bannerButtons.length >= 2, `the banner's buttons (${bannerButtons.length})`);
        for (const notice of notices) {
          for (const box of [...bannerButtons, ...select]) {
            assert.ok(!overlaps(notice, box), `the notice ${JSON.stringify(notice)} covers ${JSON.stringify(box)}`);
          }
        }
        await page.context().close();
      },
    );
  }

  await step("[7] the list shows measured scores, byte-weighted savings, warnings, and sorts or filters", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "reviewer");
    await upload(page, [photo("small.jpg"), fixtureFile("metadata-all.jpg"), fixtureFile("sampling-444.jpg")]);
    await waitForCompleted(page, 3);
    type Listed = {
      id: string;
      filename: string;
      originalSize: number;
      compressedSize: number;
      scores: { overall: number } | null;
      keptOriginal: boolean;
    };
    // Fixed-quality scores arrive after completion (deferred): the figures are read once every one is in.
    let jobs: Listed[] = [];
    await waitFor(async () => {
      jobs = await page.evaluate(async () => (await (await fetch("/api/jobs")).json()).jobs) as Listed[];
      return jobs.every((j) => j.keptOriginal || j.scores);
    }, { timeoutMs: 60_000, intervalMs: 200, message: "every job's deferred score" });
    const original = jobs.reduce((s, j) => s + j.originalSize, 0);
    const saved = jobs.reduce((s, j) => s + Math.max(0, j.originalSize - j.compressedSize), 0);
    const lowest = Math.min(...jobs.filter((j) => !j.keptOriginal && j.scores).map((j) => j.scores!.overall));
    const expectedEnd = `lowest score ${Math.round(lowest)} (${scoreWordOf(Math.round(lowest))})`;
    let summary = "";
    await waitFor(
      async () => (summary = (await page.getByTestId("review-summary").textContent()) ?? "").endsWith(expectedEnd),
      {
        timeoutMs: 30_000,
        message: () => `the summary to end "${expectedEnd}" (it reads "${summary}")`,
      },
    );
    assert.match(summary, /^Saved [\d.]+ (B|KB|MB) \(\d+%\) across 3 images · lowest score \d+ \([A-Za-z ]+\)$/);
    assert.ok(summary.includes(`(${Math.round((saved / original) * 100)}%)`), `byte-weighted: ${summary}`);
    // The batch row and the sidebar say the same (the batch list polls on its own: wait for its scores too).
    let batchRow: string | null = null;
    await waitFor(async () => (batchRow = await page.getByTestId("batch-savings").textContent()) === summary, {
      timeoutMs: 30_000,
      message: () => `the batch row to read "${summary}" (it reads "${batchRow}")`,
    });
    assert.ok(summary.includes(`Saved ${await page.getByTestId("stat-savings").textContent()}`));

    // Each card shows its measured score with the word and colour of SSIMULACRA 2's scale (ADR 026), the
    // word linked to what the words mean.
    for (const j of jobs.filter((j) => !j.keptOriginal && j.scores)) {
      const card = page.locator(`[data-testid="job-card"][data-job-id="${j.id}"]`);
      const score = card.getByTestId("job-score");
      const shown = Math.round(j.scores!.overall);
      assert.equal(await score.textContent(), `Score ${shown} · ${scoreWordOf(shown)}`);
      assert.equal(await score.getAttribute("data-tone"), shown >= 80 ? "good" : shown >= 65 ? "fair" : "poor");
      const word = score.getByTestId("score-word");
      assert.equal(await word.getAttribute("href"), "/about#scores");
      assert.ok((await word.getAttribute("title"))?.startsWith(`${scoreWordOf(shown)}: `));
    }

    // Sort by largest file.
    const order = page.getByLabel("Show", { exact: true });
    await order.selectOption("largest");
    const names = await page.getByTestId("job-card").locator("h3").allTextContents();
    assert.deepEqual(names, [...jobs].sort((a, b) => b.originalSize - a.originalSize).map((j) => j.filename));

    // What the list does with what the API reports: a low score, a size target that forced
    // quality under 40, and an image that was already optimised (the server's figures replaced).
    await page.route("**/api/jobs", async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      const [a, b, c] = body.jobs;
      a.scores = { ...a.scores, overall: 62 };
      a.keptOriginal = false;
      b.settings = { ...b.settings, target: { kind: "size", kb: 50 } };
      b.quality = 32;
      b.scores = { ...b.scores, overall: 90 };
      b.keptOriginal = false;
      c.keptOriginal = true;
      c.note = "already optimised";
      c.compressedSize = c.originalSize;
      await route.fulfill({ response: res, json: body });
    });
    await page.reload();
    await waitForCompleted(page, 3);
    const [a, b, c] = jobs;
    const warning = (id: string) =>
      page.locator(`[data-testid="job-card"][data-job-id="${id}"]`).getByTestId("job-warning").textContent();
    assert.match((await warning(a!.id)) ?? "", /Score 62 \(Fair\) is below 65: check it in Compare/);
    assert.match((await warning(b!.id)) ?? "", /The 50 KB target forced quality 32 \(below 40\)/);
    assert.equal(await page.getByTestId("job-warning").count(), 2);
    assert.match((await page.getByTestId("review-summary").textContent()) ?? "", / · lowest score 62 \(Fair\)$/);
    await page.getByLabel("Show", { exact: true }).selectOption("lowest-score");
    assert.equal(await page.getByTestId("job-card").first().getAttribute("data-job-id"), a!.id);
    await page.getByLabel("Show", { exact: true }).selectOption("already-optimised");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="job-card"]').length === 1);
    assert.equal(await page.getByTestId("job-card").getAttribute("data-job-id"), c!.id);
    await page.unroute("**/api/jobs");

    // A result served before its score: the card says it is being measured and keeps polling
    // until the score arrives.
    await page.getByLabel("Show", { exact: true }).selectOption("newest");
    await page.route("**/api/jobs", async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      const job = body.jobs.find((j: { id: string }) => j.id === a!.id);
      job.scores = null;
      job.scorePending = true;
      await route.fulfill({ response: res, json: body });
    });
    await page.reload();
    const pendingCard = page.locator(`[data-testid="job-card"][data-job-id="${a!.id}"]`);
    await pendingCard.getByTestId("job-score-pending").waitFor();
    assert.match((await pendingCard.textContent()) ?? "", /Measuring quality… · quality 80/);
    await page.unroute("**/api/jobs");
    const arrived = pendingCard.getByTestId("job-score");
    await arrived.waitFor({ timeout: 10_000 });
    assert.match((await arrived.textContent()) ?? "", new RegExp(`^Score ${Math.round(a!.scores!.overall)} · `));
    // The word leads to what the scores mean: the About page's section, scrolled to.
    await arrived.getByTestId("score-word").click();
    await page.waitForURL(/\/about#scores$/);
    const note = page.locator("#scores");
    await note.getByRole("heading", { name: "What the quality score means" }).waitFor();
    assert.ok(await note.isVisible());
    const noteTop = (await settledBox(note)).y;
    assert.ok(noteTop < page.viewportSize()!.height, `scrolled to the section (its top at ${noteTop})`);
    assert.equal(await note.getByTestId("score-scale").locator("tbody tr").count(), 7);
    await page.context().close();
  });

  await step("[9] Delete all jobs asks once; afterwards no empty batch or dead ZIP link is left", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "clearer");
    await upload(page, [photo("one.jpg"), photo("two.jpg")]);
    await waitForCompleted(page, 2);
    await page.getByTestId("batch-row").getByRole("link", { name: /Download ZIP/ }).waitFor();
    await page.getByRole("button", { name: "Delete all jobs" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Confirm deleting all jobs" });
    await confirm.getByText("Delete all 2 images and their results?", { exact: false }).waitFor();
    await confirm.getByRole("button", { name: "Keep them" }).click();
    await confirm.waitFor({ state: "detached" });
    assert.equal(await page.getByTestId("job-card").count(), 2);

    await page.getByRole("button", { name: "Delete all jobs" }).click();
    await confirm.getByRole("button", { name: "Delete 2 images" }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="job-card"]').length === 0);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="batch-row"]').length === 0);
    assert.equal(await page.getByRole("link", { name: /Download ZIP/ }).count(), 0);
    // The server still lists the emptied batch: the view leaves it out.
    const batches = await page.evaluate(async () => (await (await fetch("/api/batches")).json()).batches);
    assert.ok(batches.every((b: { jobs: unknown[] }) => b.jobs.length === 0));
    await page.context().close();
  });

  await step("[11] each completed job shows its metadata report; the queue card explains its efficiency", async () => {
    const page = await newPage();
    await signUpAndOpen(page, "metadata");
    await upload(page, [fixtureFile("metadata-all.jpg")]);
    await waitForCompleted(page, 1);
    const [job] = await page.evaluate(async () => (await (await fetch("/api/jobs")).json()).jobs);
    const text = (await page.getByTestId("job-metadata").textContent()) ?? "";
    assert.ok(job.metadata.found.length > 0);
    for (const item of job.metadata.removed) assert.ok(text.includes(item), `${text} names ${item}`);
    for (const item of job.metadata.kept) assert.ok(text.includes(item), `${text} names ${item}`);
    assert.match(text, /^Metadata: removed /);
    await page.getByTestId("queue-efficiency-help").getByText("share of your 2 processing slots", { exact: false })
      .waitFor();
    await page.context().close();
  });

  await step(
    "[8] at 1280 px Compare fits the image's shape and shows the true scale; 1:1 draws its pixels",
    async () => {
      const page = await newPage();
      await page.setViewportSize({ width: 1280, height: 800 });
      await signUpAndOpen(page, "comparer");
      await upload(page, [fixtureFile("sampling-444.jpg")]);
      await waitForCompleted(page, 1);
      await page.getByRole("button", { name: /^Compare / }).click();
      const panel = page.getByTestId("compare-panel");
      const frame = panel.getByTestId("compare-frame");
      const img = frame.locator('img[alt="Compressed"]');
      await page.waitForFunction(() => {
        const i = document.querySelector<HTMLImageElement>('[data-testid="compare-frame"] img[alt="Compressed"]');
        return i?.complete && i.naturalWidth > 0;
      });
      const natural = await img.evaluate((i) => ({
        w: (i as HTMLImageElement).naturalWidth,
        h: (i as HTMLImageElement).naturalHeight,
      }));
      const box = await settledBox(frame);
      assert.ok(Math.abs(box.width / box.height - natural.w / natural.h) < 0.02, "the frame has the image's shape");
      const fit = `${Math.round((box.width / natural.w) * 100)}%`;
      assert.equal(await panel.getByTestId("zoom-value").textContent(), fit);
      await panel.getByRole("button", { name: "1:1" }).click();
      assert.equal(await panel.getByTestId("zoom-value").textContent(), "100%");
      const drawn = await settledBox(img);
      assert.ok(Math.abs(drawn.width - natural.w) < 1.5, `1:1 draws ${natural.w} px as ${drawn.width}`);
      await panel.getByRole("button", { name: "Fit" }).click();
      assert.equal(await panel.getByTestId("zoom-value").textContent(), fit);
      await page.context().close();
    },
  );

  await step("[8] at 375 px Compare fills the screen, pinches to zoom and drags with a finger", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 375, height: 812 });
    await signUpAndOpen(page, "pincher");
    await upload(page, [fixtureFile("sampling-444.jpg")]);
    await waitForCompleted(page, 1);
    await page.getByRole("button", { name: /^Compare / }).click();
    const panel = page.getByTestId("compare-panel");
    const panelBox = await settledBox(panel);
    assert.ok(
      panelBox.width >= 375 && panelBox.x <= 0,
      `the compare view is as wide as the screen (${panelBox.width})`,
    );
    const frame = panel.getByTestId("compare-frame");
    const frameBox = await settledBox(frame);
    const before = Number.parseInt((await panel.getByTestId("zoom-value").textContent())!);
    // Two fingers moving apart, as pointer events (what a touch screen sends).
    const cx = frameBox.x + frameBox.width / 2;
    const cy = frameBox.y + frameBox.height / 2;
    await frame.evaluate((el, { cx, cy }) => {
      const fire = (type: string, id: number, x: number, y: number) =>
        el.dispatchEvent(
          new PointerEvent(type, {
            bubbles: true,
            pointerId: id,
            pointerType: "touch",
            isPrimary: id === 1,
            clientX: x,
            clientY: y,
          }),
        );
      fire("pointerdown", 1, cx - 20, cy);
      fire("pointerdown", 2, cx + 20, cy);
      for (let d = 20; d <= 60; d += 10) {
        fire("pointermove", 1, cx - d, cy);
        fire("pointermove", 2, cx + d, cy);
      }
      fire("pointerup", 1, cx - 60, cy);
      fire("pointerup", 2, cx + 60, cy);
    }, { cx, cy });
    const after = Number.parseInt((await panel.getByTestId("zoom-value").textContent())!);
    assert.ok(Math.abs(after - Math.min(400, before * 3)) <= 2, `pinching 3× zooms ${before}% → ${after}%`);
    // One finger drags the zoomed image.
    const img = frame.locator('img[alt="Compressed"]');
    const x0 = (await settledBox(img)).x;
    await frame.evaluate((el, { cx, cy }) => {
      const fire = (type: string, x: number) =>
        el.dispatchEvent(
          new PointerEvent(type, { bubbles: true, pointerId: 3, pointerType: "touch", clientX: x, clientY: cy }),
        );
      fire("pointerdown", cx);
      fire("pointermove", cx + 40);
      fire("pointerup", cx + 40);
    }, { cx, cy });
    const x1 = (await settledBox(img)).x;
    assert.ok(x1 > x0 + 20, `the drag moved the image (${x0} → ${x1})`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `no horizontal scroll (${width}px)`);
    // Close sits at the bottom of the screen, within the thumb's reach.
    const close = await settledBox(panel.getByRole("button", { name: "Close" }));
    assert.ok(close.y + close.height > 812 - 60, `Close at the bottom (y = ${close.y})`);
    await panel.getByRole("button", { name: "Close" }).click();
    await panel.waitFor({ state: "detached" });
    await page.context().close();
  });
});

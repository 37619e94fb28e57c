/**
 * Refreshes docs/screenshots: a fresh server, a signed-in free user with a few compressed
 * photos; the first screen at 1280×800 and 375×812 (compressor-*-first-screen.png), the whole
 * page with an open Compare panel (compressor-{1280,375}.png; on a phone Compare fills the
 * screen, compare-375.png); at 1280×800 also the open Compare dialog (compare.png) and the Live preview
 * panel after its first prediction (live-preview.png).
 * Run with `deno task screenshots` (builds the web app first).
 * Uses the public corpus photos when `.corpus/` exists, else the test fixtures.
 */
import { Buffer } from "node:buffer";
import { launchBrowser } from "../tests/e2e/harness.ts";
import { fixture, signUpAndOpen, upload, type UploadFile, waitForCompleted } from "../tests/e2e/compressor-helpers.ts";
import { startServer } from "../tests/setup/server-process.ts";

const OUT = new URL("../docs/screenshots/", import.meta.url);
const CORPUS = new URL("../.corpus/A/", import.meta.url);

function photos(): UploadFile[] {
  try {
    const names = [...Deno.readDirSync(CORPUS)].map((e) => e.name).filter((n) => n.endsWith(".jpg")).sort().slice(0, 3);
    if (names.length === 3) {
      return names.map((n) => ({
        name: n.replace(/^A\d+-mate-/, "").toLowerCase(),
        mimeType: "image/jpeg",
        buffer: Buffer.from(Deno.readFileSync(new URL(n, CORPUS))),
      }));
    }
  } catch { /* no corpus: use the fixtures */ }
  return ["metadata-all.jpg", "base.jpg", "sampling-444.jpg"].map((n) => ({
    name: n,
    mimeType: "image/jpeg",
    buffer: fixture(n),
  }));
}

await Deno.mkdir(OUT, { recursive: true });
const server = await startServer();
const browser = await launchBrowser();
try {
  for (const [width, height] of [[1280, 800], [375, 812]] as const) {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width, height } });
    const page = await context.newPage();
    await signUpAndOpen(page, `shots${width}`);
    await upload(page, photos());
    await upload(page, [{ name: "damaged-scan.jpg", mimeType: "image/jpeg", buffer: fixture("corrupt-scan.jpg") }]);
    await waitForCompleted(page, 3);
    await page.locator('[data-testid="job-card"][data-status="error"]').waitFor();
    // Thumbnails load lazily: bring them in before the shots.
    await page.evaluate(() => document.querySelectorAll("img").forEach((i) => (i.loading = "eager")));
    await page.waitForFunction(() => [...document.querySelectorAll("img")].every((i) => i.complete));
    // The notice would cover the page; the sticky header belongs at the top.
    for (const close of await page.getByRole("button", { name: "Close", exact: true }).all()) await close.click();
    await page.evaluate(() => globalThis.scrollTo(0, 0));
    await page.waitForTimeout(300);
    const shot = async (name: string, fullPage: boolean) => {
      const path = new URL(name, OUT).pathname;
      await page.screenshot({ path, fullPage });
      console.log(`Wrote ${path}`);
    };
    // What a user sees first: drop zone, settings summary and results.
    await shot(`compressor-${width}-first-screen.png`, false);

    await page.getByRole("button", { name: /^Compare / }).first().click();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="compare-panel"] img')].every((i) => (i as HTMLImageElement).complete)
    );
    if (width >= 640) {
      await page.waitForTimeout(300);
      await shot("compare.png", false);
    }
    if (width < 640) {
      // On a phone Compare fills the screen: shot on its own, then closed for the page.
      await page.waitForTimeout(300);
      await shot(`compare-${width}.png`, false);
      await page.getByTestId("compare-panel").getByRole("button", { name: "Close", exact: true }).click();
    }
    // Job cards skip rendering while off screen (content-visibility); a full-page shot needs them drawn.
    await page.evaluate(() =>
      document.querySelectorAll<HTMLElement>('[data-testid="job-card"]').forEach((c) =>
        c.style.contentVisibility = "visible"
      )
    );
    await page.evaluate(() => globalThis.scrollTo(0, 0));
    await page.waitForTimeout(500);
    await shot(`compressor-${width}.png`, true);

    if (width >= 640) {
      // The Live preview of the first photo, once its full-size prediction is in.
      if (await page.getByTestId("compare-dialog").count()) {
        await page.keyboard.press("Escape");
        await page.getByTestId("compare-dialog").waitFor({ state: "detached" });
      }
      await page.getByRole("button", { name: /^Live preview / }).first().click();
      const panel = page.getByTestId("live-preview");
      await page.waitForFunction(
        () => {
          const el = document.querySelector('[data-testid="live-preview"]');
          return el !== null && Number(el.getAttribute("data-full-gen") ?? 0) > 0 &&
            !el.hasAttribute("data-full-pending");
        },
        undefined,
        { timeout: 120_000 },
      );
      await panel.getByTestId("live-preview-crop").waitFor();
      await panel.evaluate((el) => el.scrollIntoView({ block: "start" }));
      // Below the sticky header.
      await page.evaluate(() => globalThis.scrollBy(0, -80));
      await page.waitForTimeout(500);
      await shot("live-preview.png", false);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

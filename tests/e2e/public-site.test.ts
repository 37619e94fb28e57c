import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { collectErrors, e2eSuite } from "./harness.ts";
import { STORE_STATEMENTS } from "../../contract/storage.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

/** Waits until React has hydrated the prerendered page (our pages set document.title in an effect). */
async function hydrated(page: Page) {
  await page.waitForLoadState("networkidle");
}

const cardCategories = (page: Page) =>
  page.getByTestId("article-card").evaluateAll((cards) =>
    cards.map((c) => c.querySelectorAll("span")[1]?.textContent ?? "")
  );

e2eSuite("the public site in the browser", async ({ newPage, step }) => {
  await step("every public page hydrates its prerendered HTML without a console error", async () => {
    const page = await newPage();
    const errors = collectErrors(page);
    for (const path of ["/", "/about", "/privacy", "/contact", "/articles", "/article7", "/articles?category=SEO"]) {
      await page.goto(path);
      await hydrated(page);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  await step(
    "[regression] a build from yesterday hydrates the privacy page without a mismatch, then shows today",
    async () => {
      const page = await newPage();
      // The visitor's clock two days after the build: the prerendered date is no longer today.
      const later = new Date(Date.now() + 2 * 24 * 3600 * 1000);
      later.setUTCHours(12);
      await page.clock.install({ time: later });
      const errors = collectErrors(page);
      await page.goto("/privacy");
      await hydrated(page);
      const shown = page.getByTestId("last-updated");
      await shown.and(page.locator(`[datetime="${later.toISOString().slice(0, 10)}"]`)).waitFor();
      assert.equal(
        await shown.textContent(),
        later.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }),
      );
      assert.deepEqual(errors, []);
      await page.context().close();
    },
  );

  await step("the category filter narrows the cards and keeps the category in the URL", async () => {
    const page = await newPage();
    await page.goto("/articles");
    await hydrated(page);
    const all = await cardCategories(page);
    assert.ok(all.length > 0);
    // The category of the last card, and how many cards share it.
    const category = all[all.length - 1]!;
    const count = all.filter((c) => c === category).length;
    assert.ok(count < all.length, "filtering must hide some cards");

    const filters = page.getByRole("navigation", { name: "Categories" });
    await filters.getByRole("link", { name: category, exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("category") === category);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="article-card"]').length === n, count);
    assert.deepEqual(await cardCategories(page), Array(count).fill(category));
    assert.equal(await filters.getByRole("link", { name: category, exact: true }).getAttribute("aria-current"), "true");
    assert.equal(await filters.getByRole("link", { name: "All", exact: true }).getAttribute("aria-current"), null);

    // Opening a filtered URL directly applies the filter once the page has hydrated.
    await page.goto(`/articles?category=${encodeURIComponent(category)}`);
    await hydrated(page);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="article-card"]').length === n, count);
    assert.deepEqual(await cardCategories(page), Array(count).fill(category));

    await filters.getByRole("link", { name: "All", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/articles" && u.search === "");
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="article-card"]').length === n,
      all.length,
    );
    await page.context().close();
  });

  await step("a card's Read Article link opens the article with its title, learn card and call to action", async () => {
    const page = await newPage();
    await page.goto("/articles");
    await hydrated(page);
    const card = page.getByTestId("article-card").first();
    const title = (await card.getByRole("heading").textContent())!;
    await card.getByRole("link", { name: /Read Article/ }).click();
    await page.waitForURL((u) => /^\/article\d+$/.test(u.pathname));
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    await page.getByRole("heading", { name: "What You'll Learn" }).waitFor();
    await page.waitForFunction((t) => document.title.startsWith(t), title);
    // The body arrives as its own chunk on client-side navigation.
    await page.locator(".article-body h2").first().waitFor();
    await page.locator("article a[href='/']").last().click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.getByRole("heading", { level: 1, name: "Compress JPEG images without losing quality" }).waitFor();
    await page.context().close();
  });

  await step("picking files on the landing page keeps them and leads to /auth with returnUrl", async () => {
    const page = await newPage();
    await page.goto("/");
    await hydrated(page);
    await page.locator("#landing-files").setInputFiles([`${FIXTURES}base.jpg`, `${FIXTURES}progressive.jpg`]);
    await page.waitForURL((u) => u.pathname === "/auth");
    assert.equal(new URL(page.url()).searchParams.get("returnUrl"), "/");
    assert.match(page.url(), /returnUrl=%2F$/);
    const pending = await page.evaluate(() => JSON.parse(sessionStorage.getItem("pendingFiles") ?? "null"));
    const sizes = [Deno.statSync(`${FIXTURES}base.jpg`).size, Deno.statSync(`${FIXTURES}progressive.jpg`).size];
    assert.deepEqual(pending, [
      { name: "base.jpg", size: sizes[0], type: "image/jpeg" },
      { name: "progressive.jpg", size: sizes[1], type: "image/jpeg" },
    ]);
    // The bytes themselves wait in IndexedDB for after sign-in.
    const stored = await page.evaluate(() =>
      new Promise<Array<{ name: string; size: number }>>((resolve, reject) => {
        const open = indexedDB.open("squeezejpeg");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction("pending-files").objectStore("pending-files").get("files");
          get.onsuccess = () => resolve((get.result as File[]).map((f) => ({ name: f.name, size: f.size })));
          get.onerror = () => reject(get.error);
        };
      })
    );
    assert.deepEqual(stored, [{ name: "base.jpg", size: sizes[0] }, { name: "progressive.jpg", size: sizes[1] }]);
    await page.context().close();
  });

  await step("the contact form names missing fields, then sends and shows the success notice", async () => {
    const page = await newPage();
    await page.goto("/contact");
    await hydrated(page);
    let posts = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/contact") && r.method() === "POST") posts++;
    });
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.getByText("Name is required").waitFor();
    await page.getByText("Message is required").waitFor();
    assert.equal(posts, 0);

    await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
    await page.getByLabel("Email", { exact: true }).fill("not-an-email");
    await page.getByLabel("Subject", { exact: true }).fill("Hello");
    await page.getByRole("textbox", { name: "Message" }).fill("How big can Premium files be?");
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.getByText("Enter a valid email address").waitFor();
    assert.equal(posts, 0);

    await page.getByLabel("Email", { exact: true }).fill("ada@example.com");
    const response = page.waitForResponse((r) => r.url().endsWith("/api/contact"));
    await page.getByRole("button", { name: "Send Message" }).click();
    assert.equal((await response).status(), 201);
    await page.getByText("Message sent successfully!", { exact: true }).waitFor();
    await page.getByText("We'll get back to you within 24 hours.", { exact: true }).waitFor();
    assert.equal(await page.getByLabel("Name", { exact: true }).inputValue(), "");
    assert.equal(await page.getByRole("textbox", { name: "Message" }).inputValue(), "");
    await page.context().close();
  });

  await step("on a phone-sized screen the header links move into a menu", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/about");
    await hydrated(page);
    const main = page.getByRole("navigation", { name: "Main" });
    assert.equal(await main.isVisible(), false);
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await menu.getByRole("link", { name: "Contact" }).click();
    await page.waitForURL((u) => u.pathname === "/contact");
    await page.getByRole("heading", { level: 1, name: "Contact Us" }).waitFor();
    await page.context().close();
  });

  await step("with JavaScript off, an article is complete and the 404 page answers unknown paths", async () => {
    const page = await newPage();
    await page.context().route("**/*.js", (route) => route.abort());
    await page.goto("/article7");
    await page.getByRole("heading", { level: 1 }).waitFor();
    assert.ok((await page.locator(".article-body").innerText()).split(/\s+/).length > 500);
    const res = await page.goto("/definitely-not-here");
    assert.equal(res?.status(), 404);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
    await page.context().close();
  });
});

// A file: store keeps images on disk: the server sends the pages' file variant (ADR 020). The folder is
// the store's alone and goes with the suite.
const fileStore = Deno.makeTempDirSync({ prefix: "e2e-store-" });
e2eSuite("the public site of a server with a file: store in the browser", async ({ newPage, step }) => {
  try {
    await step("pages hydrate with the file store's statements, and keep them on navigation and sign-in", async () => {
      const page = await newPage();
      const errors = collectErrors(page);
      await page.goto("/privacy");
      await hydrated(page);
      await page.getByText(STORE_STATEMENTS.file.privacyLead).waitFor();
      assert.equal(await page.getByText(/never written to disk|never touch the disk/).count(), 0);
      // Rendered by the client from here on, with the kind the first page's meta tag gave.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" }).click();
      await page.getByRole("heading", { level: 1, name: "About SqueezeJPEG" }).waitFor();
      await page.getByText(STORE_STATEMENTS.file.short, { exact: false }).waitFor();
      assert.deepEqual(errors, []);
      // /auth is the bare shell (it asks GET /api/user, a 401 for a visitor): its own meta tag names the kind.
      await page.goto("/auth");
      await page.getByText(STORE_STATEMENTS.file.short, { exact: true }).waitFor();
      await page.context().close();
    });
  } finally {
    await Deno.remove(fileStore, { recursive: true });
  }
}, { STORE_URL: `file:${fileStore}` });

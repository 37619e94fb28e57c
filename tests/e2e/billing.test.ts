/** The Premium path with local test billing (no Stripe keys), ads and the cookie banner, in Chromium. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserMissing, e2eSuite, launchBrowser } from "./harness.ts";
import { settledBox } from "./layout.ts";
import { startServer } from "../setup/server-process.ts";

/** An article page: it holds the "article" ad placement for everyone but Premium users. */
const ARTICLE_WITH_AD = "/article6";

async function signUpThroughUi(page: Page, username: string) {
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.locator("#register-username").fill(username);
  await page.locator("#register-password").fill("correct horse");
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL((u) => u.pathname === "/");
}

const apiJson = (page: Page, path: string) =>
  page.evaluate(async (p) => (await fetch(p, { credentials: "include" })).json(), path);

e2eSuite("premium, ads and cookie consent in the browser", async ({ newPage, step }) => {
  await step("a visitor opening /subscribe is told to sign in and sent to /auth", async () => {
    const page = await newPage();
    await page.goto("/subscribe");
    await page.getByText("Authentication Required", { exact: true }).waitFor();
    await page.getByText("Please log in to subscribe to premium features.", { exact: true }).waitFor();
    await page.waitForURL((u) => u.pathname === "/auth" && u.searchParams.get("returnUrl") === "/subscribe");
    await page.context().close();
  });

  await step("a visitor's landing ad is revealed only once it scrolls into view, in its reserved box", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    const config = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/config");
    await page.goto("/");
    const slot = page.locator('[data-ad-slot="landing"]');
    const before = await settledBox(slot);
    assert.equal(before.height, 250, `reserved height: ${before.height}`);
    assert.ok(before.y > 720, `the landing ad starts below the fold of a 1280×720 window (at y = ${before.y})`);
    // Nothing is shown until it is scrolled to. The slot could show its ad once the page has hydrated
    // and knows its audience (the cookie banner shows for a visitor) and has the site config, and its
    // observer has been told that the slot is out of view (an observer made after it, here, is told
    // in the same update).
    await page.getByTestId("cookie-banner").waitFor();
    assert.ok((await config).ok());
    const inView = await slot.evaluate((el) =>
      new Promise<boolean>((resolve) => {
        const observer = new IntersectionObserver((entries) => {
          observer.disconnect();
          resolve(entries.some((e) => e.isIntersecting));
        });
        observer.observe(el);
      })
    );
    assert.equal(inView, false);
    // A reveal comes REVEAL_DELAY_MS (100 ms, ad-slot.tsx) after the slot is seen in view, on a timer that
    // leaves no trace before it fires: this window, three times that, is the one thing that can show a
    // slot revealed out of view.
    await page.waitForTimeout(300);
    assert.equal(await slot.getAttribute("data-ad-state"), "waiting");
    await slot.scrollIntoViewIfNeeded();
    await page.locator('[data-ad-slot="landing"][data-ad-state="house"]').waitFor();
    await slot.getByRole("link", { name: "Upgrade to Premium" }).waitFor();
    const after = await settledBox(slot);
    assert.equal(after.height, before.height);
    await page.context().close();
  });

  await step("a free user sees house ads and the cookie banner, and the cookie choice survives reloads", async () => {
    const page = await newPage();
    await signUpThroughUi(page, "freeuser");
    const banner = page.getByTestId("cookie-banner");
    await banner.waitFor();
    await page.goto(ARTICLE_WITH_AD);
    await page.locator('[data-ad-slot="article"][data-ad-state="house"]').waitFor();
    await banner.getByRole("button", { name: "Decline" }).click();
    await banner.waitFor({ state: "detached" });
    assert.equal(await page.evaluate(() => localStorage.getItem("cookieConsent")), "declined");
    await page.reload();
    await page.locator('[data-ad-slot="article"][data-ad-state="house"]').waitFor();
    assert.equal(await page.getByTestId("cookie-banner").count(), 0);
    await page.goto("/");
    await page.getByTestId("display-name").waitFor();
    assert.equal(await page.getByTestId("cookie-banner").count(), 0);
    // No blocker in this browser: no ad-blocker notice.
    assert.equal(await page.getByTestId("ad-blocker-notice").count(), 0);
    await page.context().close();
  });

  await step("cancelling the test checkout leaves the user on the free plan", async () => {
    const page = await newPage();
    await signUpThroughUi(page, "hesitant");
    await page.goto("/subscribe");
    await page.getByRole("button", { name: "Subscribe Now" }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/billing/test-checkout/"));
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL((u) => u.pathname === "/subscribe");
    await page.getByText("Checkout cancelled", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Subscribe Now" }).waitFor();
    assert.equal((await apiJson(page, "/api/user")).subscriptionStatus, "free");
    await page.context().close();
  });

  await step(
    "free user → Subscribe Now → test checkout → Pay → Premium without ads or banner, limits lifted → cancel shows the expiry date",
    async () => {
      const page = await newPage();
      await signUpThroughUi(page, "payer");
      await page.getByTestId("cookie-banner").waitFor();
      assert.equal((await apiJson(page, "/api/usage")).limit, 10);

      await page.getByRole("link", { name: "Upgrade to Premium" }).first().click();
      await page.waitForURL((u) => u.pathname === "/subscribe");
      await page.getByRole("heading", { name: "Premium Plan" }).waitFor();
      await page.getByText("$9.99").first().waitFor();
      await page.getByRole("button", { name: "Subscribe Now" }).click();

      await page.waitForURL((u) => u.pathname.startsWith("/billing/test-checkout/"));
      await page.getByRole("heading", { name: "Test checkout" }).waitFor();
      await page.getByText("This is a test checkout, not a real payment.", { exact: false }).waitFor();
      await page.getByRole("button", { name: "Pay" }).click();

      // Premium at once, without a reload: the card, then the compressor.
      await page.getByTestId("premium-active").waitFor();
      await page.waitForURL((u) => u.pathname === "/");
      assert.equal(await page.getByRole("link", { name: "Upgrade to Premium" }).count(), 0);
      assert.equal(await page.getByTestId("cookie-banner").count(), 0);
      const user = await apiJson(page, "/api/user");
      assert.equal(user.subscriptionStatus, "active");
      assert.equal((await apiJson(page, "/api/usage")).limit, null);

      const card = page.getByTestId("subscription-card");
      await card.waitFor();
      assert.equal(await card.getByTestId("plan-badge").textContent(), "Premium");
      await card.getByText("Premium Active", { exact: true }).waitFor();
      // Premium chooses its concurrency (the free plan is fixed at 2).
      await page.getByRole("button", { name: "Change", exact: true }).click();
      assert.deepEqual(
        await page.getByLabel("Concurrent jobs").locator("option").allTextContents(),
        ["1", "2", "3", "4", "5", "6", "8", "10"],
      );
      // The card agrees with the test checkout: 30 days that do not renew.
      assert.match(
        (await card.getByTestId("subscription-renewal").textContent()) ?? "",
        /^Premium until .+ \(test billing does not renew\)\.$/,
      );

      // No ads for Premium, on any page. The article renders at once, its ad's reserved box too while the
      // user is loading; once the user is known (Premium), the box goes and never comes back.
      const userRead = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/user");
      await page.goto(ARTICLE_WITH_AD);
      assert.equal((await userRead).status(), 200);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await page.locator('[data-ad-slot="article"]').waitFor({ state: "detached" });
      assert.equal(await page.locator("[data-ad-slot]").count(), 0);
      assert.equal(await page.getByTestId("cookie-banner").count(), 0);

      // Cancel: the notice, the expiry date, and no cancel button any more.
      await page.goto("/");
      await card.getByRole("button", { name: "Cancel Subscription" }).click();
      await card.getByRole("button", { name: "Yes, cancel" }).click();
      await page.getByText("Subscription Cancelled", { exact: true }).waitFor();
      await page.getByText("You keep Premium until", { exact: false }).first().waitFor();
      const expiry = card.getByTestId("subscription-expiry");
      await expiry.waitFor();
      const { currentPeriodEnd, cancelAtPeriodEnd } = await apiJson(page, "/api/subscription/status");
      assert.equal(cancelAtPeriodEnd, true);
      const day = await page.evaluate(
        (s) => new Date(s * 1000).toLocaleDateString("en-US", { dateStyle: "long" }),
        currentPeriodEnd,
      );
      assert.match((await expiry.textContent()) ?? "", new RegExp(day));
      assert.equal(await card.getByRole("button", { name: "Cancel Subscription" }).count(), 0);
      // Still Premium until that date.
      assert.equal((await apiJson(page, "/api/user")).subscriptionStatus, "active");

      // A subscriber opening /subscribe sees Premium Active and is sent home.
      await page.goto("/subscribe");
      await page.getByTestId("premium-active").waitFor();
      await page.getByText("Already Subscribed", { exact: true }).waitFor();
      await page.waitForURL((u) => u.pathname === "/");
      await page.context().close();
    },
  );
});

Deno.test({
  name: "with ADSENSE_CLIENT the slots load the ad network once, and a blocked ad script shows the ad-blocker notice",
  ignore: browserMissing,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ ADSENSE_CLIENT: "ca-pub-1234567890", ADSENSE_SLOTS: "article=1111111111" });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ baseURL: server.url });
      let scriptRequests = 0;
      // Stand in for an ad blocker (and keep the test offline).
      await context.route("https://pagead2.googlesyndication.com/**", (route) => {
        scriptRequests++;
        return route.abort("blockedbyclient");
      });
      const page = await context.newPage();
      const res = await page.goto(ARTICLE_WITH_AD);
      assert.match(res?.headers()["content-security-policy"] ?? "", /pagead2\.googlesyndication\.com/);
      const slot = page.locator('[data-ad-slot="article"][data-ad-state="adsense"]');
      await slot.waitFor();
      assert.equal(await slot.locator('ins.adsbygoogle[data-ad-client="ca-pub-1234567890"]').count(), 1);
      assert.equal(await slot.locator("ins.adsbygoogle").getAttribute("data-ad-slot"), "1111111111");
      await page.getByText(
        "We noticed you're using an ad blocker. This free tool is supported by ads. Please consider disabling your ad blocker to help us keep this service free!",
        { exact: true },
      ).waitFor();
      assert.equal(scriptRequests, 1);
      assert.equal(await page.locator('script[data-adsense="true"]').count(), 1);
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});

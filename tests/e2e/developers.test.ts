import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { API_KEY_PREFIX, V1, V1_HEADERS } from "../../contract/api-keys.ts";
import { paths } from "../../contract/routes.ts";
import { collectErrors, e2eSuite } from "./harness.ts";

const JPEG = Deno.readFileSync(new URL("../fixtures/base.jpg", import.meta.url));

/** POST /api/v1/compress with `key` from the page's context (which also holds the session cookie). */
function compressWith(page: Page, key: string) {
  return page.request.post(V1.compress, {
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "image/jpeg" },
    data: Buffer.from(JPEG),
  });
}

/** A new account through the sign-up form, landing on the compressor. */
async function signUp(page: Page, username: string) {
  await page.goto(paths.auth);
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.locator("#register-username").fill(username);
  await page.locator("#register-password").fill("correct horse");
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL((u) => u.pathname === paths.home);
}

e2eSuite("the developers page in the browser", async ({ server, newPage, step }) => {
  await step(
    "signed out, /developers is prerendered with the curl example, the headers and a sign-in link",
    async () => {
      // As a crawler gets it: no JavaScript.
      const res = await fetch(`${server.url}${paths.developers}`);
      assert.equal(res.status, 200);
      const html = (await res.text()).replaceAll("&quot;", '"').replaceAll("&amp;", "&");
      assert.match(html, /data-prerendered="\/developers"/);
      assert.match(html, /<h1[^>]*>Developer API<\/h1>/);
      assert.ok(html.includes(`curl -sS -X POST "https://HOST${V1.compress}?quality=75"`), "the sync curl example");
      assert.ok(html.includes('-H "Authorization: Bearer $SQUEEZE_API_KEY"'));
      assert.ok(html.includes("--data-binary @photo.jpg -o photo.min.jpg -D -"));
      assert.ok(html.includes(`${V1.compress}?async=true`), "the async example");
      for (const header of Object.values(V1_HEADERS)) assert.ok(html.includes(header), `the ${header} header`);
      assert.ok(html.includes(V1.openapi));
      assert.ok(html.includes("deno task cli compress"));
      assert.ok(html.includes(`href="${paths.auth}?returnUrl=%2Fdevelopers"`), "the sign-in link comes back here");

      // In the browser: the footer leads here, the page hydrates cleanly, the examples use this site's address.
      const page = await newPage();
      const errors = collectErrors(page);
      await page.goto(paths.about);
      await page.waitForLoadState("networkidle");
      await page.getByRole("contentinfo").getByRole("link", { name: "Developers" }).click();
      await page.waitForURL((u) => u.pathname === paths.developers);
      await page.getByRole("heading", { level: 1, name: "Developer API" }).waitFor();
      await page.getByText(`curl -sS -X POST "${server.url}${V1.compress}?quality=75"`).waitFor();
      await page.goto(paths.developers);
      await page.waitForLoadState("networkidle");
      await page.getByText(`curl -sS -X POST "${server.url}${V1.compress}?quality=75"`).waitFor();
      await page.getByRole("link", { name: `${server.url}${V1.openapi}` }).waitFor();
      await page.getByRole("link", { name: "Sign in to create a key" }).waitFor();
      assert.deepEqual(errors, []);
      await page.context().close();
    },
  );

  await step(
    "signed in, a new key's secret is shown once, the list keeps only its prefix, and a revoked key gets 401",
    async () => {
      const page = await newPage();
      const errors = collectErrors(page);
      await page.goto(paths.developers);
      await page.getByRole("link", { name: "Sign in to create a key" }).click();
      await page.waitForURL((u) => u.pathname === paths.auth);
      await page.getByRole("tab", { name: "Sign Up" }).click();
      await page.locator("#register-username").fill("devuser");
      await page.locator("#register-password").fill("correct horse");
      await page.getByRole("button", { name: "Create Account" }).click();
      await page.waitForURL((u) => u.pathname === paths.developers);
      await page.getByText("No keys yet.").waitFor();

      await page.getByLabel("Key name").fill("CI pipeline");
      await page.getByRole("button", { name: "Create key" }).click();
      const panel = page.getByTestId("new-api-key");
      await panel.getByText("Copy it now: it is not shown again").waitFor();
      const secret = (await panel.getByTestId("new-api-key-secret").textContent())!.trim();
      assert.ok(secret.startsWith(API_KEY_PREFIX), secret);
      assert.ok(secret.length > API_KEY_PREFIX.length + 20);
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
      await panel.getByRole("button", { name: "Copy key" }).click();
      await panel.getByRole("button", { name: "Copied", exact: true }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);

      const list = page.getByTestId("api-key-list");
      const row = list.getByTestId("api-key-row").filter({ hasText: "CI pipeline" });
      await row.waitFor();
      const prefix = (await row.getByTestId("api-key-prefix").textContent())!.replace(/…$/, "");
      assert.ok(prefix.startsWith(API_KEY_PREFIX) && secret.startsWith(prefix), `${prefix} is the secret's start`);
      assert.ok(prefix.length < secret.length);
      assert.ok(!(await list.textContent())!.includes(secret), "the list never shows the secret");
      await row.getByText("Last used: Never").waitFor();

      // The key works. (This context sends the session cookie too, which /api/v1 ignores: it does not
      // rescue the revoked key below.)
      const ok = await compressWith(page, secret);
      assert.equal(ok.status(), 200, await ok.text());
      assert.equal(ok.headers()[V1_HEADERS.count.toLowerCase()], "1");

      // After a reload the secret is gone from the page (and was never stored in the browser).
      await page.reload();
      await page.waitForLoadState("networkidle");
      await row.waitFor();
      await row.getByText(/Last used: (?!Never)/).waitFor();
      assert.equal(await page.getByTestId("new-api-key").count(), 0);
      assert.ok(!(await page.content()).includes(secret), "the secret is nowhere on the page");
      const stored = await page.evaluate(() =>
        JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })
      );
      assert.ok(!stored.includes(secret));

      // Revoke, after confirming: the key leaves the list and the API refuses it.
      await row.getByRole("button", { name: "Revoke CI pipeline" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Confirm revoking CI pipeline" });
      await confirm.getByRole("button", { name: "Revoke key" }).click();
      await row.waitFor({ state: "detached" });
      await page.getByText("No keys yet.").waitFor();

      const refused = await compressWith(page, secret);
      assert.equal(refused.status(), 401);
      assert.equal(typeof (await refused.json()).error, "string");
      assert.deepEqual(errors, []);
      await page.context().close();
    },
  );

  await step(
    "the keys section shows a failed read with Retry, and the server's reason when a key is refused",
    async () => {
      const page = await newPage();
      await signUp(page, "devfailures");

      let failReads = true;
      await page.route("**/api/keys", (route) => {
        const method = route.request().method();
        if (method === "GET" && failReads) {
          return route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"Database is down"}' });
        }
        if (method === "POST") {
          return route.fulfill({
            status: 409,
            contentType: "application/json",
            body: '{"error":"You have too many keys"}',
          });
        }
        return route.fallback();
      });
      await page.goto(paths.developers);
      const failure = page.getByTestId("query-error");
      await failure.getByText("Could not load your API keys").waitFor();
      await failure.getByText("Database is down").waitFor();
      failReads = false;
      await failure.getByRole("button", { name: "Retry" }).click();
      await page.getByText("No keys yet.").waitFor();
      assert.equal(await failure.count(), 0);

      await page.getByLabel("Key name").fill("One too many");
      await page.getByRole("button", { name: "Create key" }).click();
      await page.getByText("You have too many keys").waitFor();
      assert.equal(await page.getByTestId("new-api-key").count(), 0);
      // An empty name is refused before any request, with the contract's message.
      await page.getByLabel("Key name").fill("   ");
      await page.getByRole("button", { name: "Create key" }).click();
      await page.getByText("name: give the key a name").waitFor();
      await page.context().close();
    },
  );

  await step("the signed-in header's Developer link opens the page", async () => {
    const page = await newPage();
    await signUp(page, "devheader");
    await page.getByTestId("account").getByRole("link", { name: "Developer" }).click();
    await page.waitForURL((u) => u.pathname === paths.developers);
    await page.getByRole("heading", { level: 2, name: "Your API keys" }).waitFor();
    await page.getByRole("button", { name: "Create key" }).waitFor();
    await page.context().close();
  });
});

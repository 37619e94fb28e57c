import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { collectErrors, e2eSuite } from "./harness.ts";

async function signUpThroughUi(
  page: Page,
  username: string,
  extra: { firstName?: string; lastName?: string; email?: string } = {},
) {
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  if (extra.firstName) await page.locator('input[name="firstName"]').fill(extra.firstName);
  if (extra.lastName) await page.locator('input[name="lastName"]').fill(extra.lastName);
  await page.locator("#register-username").fill(username);
  if (extra.email) await page.locator('input[name="email"]').fill(extra.email);
  await page.locator("#register-password").fill("correct horse");
  await page.getByRole("button", { name: "Create Account" }).click();
}

e2eSuite("auth flows in the browser", async ({ newPage, step }) => {
  await step(
    "sign up lands on / signed in with the name shown, /auth redirects, sign out ends the session",
    async () => {
      const page = await newPage();
      // A visitor's console stays clean: signed out is not a failed request (GET /api/user answers null).
      const consoleErrors = collectErrors(page);
      await signUpThroughUi(page, "ada", { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" });
      await page.waitForURL((u) => u.pathname === "/");
      assert.equal(await page.getByTestId("display-name").textContent(), "Ada Lovelace");
      await page.getByText("ada@example.com", { exact: true }).waitFor();
      await page.getByText("Account created!", { exact: true }).waitFor();

      // Opening /auth while signed in goes back to /.
      await page.goto("/auth");
      await page.waitForURL((u) => u.pathname === "/");
      await page.getByTestId("display-name").waitFor();

      // Sign out: the header disappears and the session is gone on the server.
      await page.getByRole("button", { name: "Sign Out", exact: true }).first().click();
      await page.waitForFunction(() => !document.querySelector('[data-testid="display-name"]'));
      // Asked with the page's cookies but outside the page: signing out navigates, which would end an evaluate.
      assert.equal(await (await page.request.get("/api/user")).json(), null);
      // Signed out again, /auth reads the user once more.
      await page.goto("/auth");
      await page.getByRole("tab", { name: "Sign Up" }).waitFor();
      assert.deepEqual(consoleErrors, []);
      await page.context().close();
    },
  );

  await step('a user without a name or email shows the username and "No email"', async () => {
    const page = await newPage();
    await signUpThroughUi(page, "plainuser");
    await page.waitForURL((u) => u.pathname === "/");
    assert.equal(await page.getByTestId("display-name").textContent(), "plainuser");
    await page.getByText("No email", { exact: true }).waitFor();
    await page.context().close();
  });

  await step('a wrong password shows "Login failed"', async () => {
    const page = await newPage();
    await page.goto("/auth");
    await page.locator("#login-username").fill("ada");
    await page.locator("#login-password").fill("wrong password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByText("Login failed", { exact: true }).waitFor();
    await page.getByText("Invalid username or password", { exact: true }).waitFor();
    assert.equal(new URL(page.url()).pathname, "/auth");
    await page.context().close();
  });

  await step('empty fields show "Missing information" and send no request', async () => {
    const page = await newPage();
    await page.goto("/auth");
    let loginCalls = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/login")) loginCalls++;
    });
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByText("Missing information", { exact: true }).waitFor();
    await page.getByText("Please enter both username and password", { exact: true }).waitFor();
    assert.equal(loginCalls, 0);
    await page.context().close();
  });

  await step("sign in follows a same-site returnUrl and ignores a foreign one", async () => {
    const page = await newPage();
    await page.goto("/auth?returnUrl=%2Fabout");
    await page.locator("#login-username").fill("ada");
    await page.locator("#login-password").fill("correct horse");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL((u) => u.pathname === "/about");
    await page.getByText("Welcome back!", { exact: true }).waitFor();
    // A foreign returnUrl is ignored.
    await page.goto("/auth?returnUrl=https%3A%2F%2Fevil.example%2F");
    await page.waitForURL((u) => u.pathname === "/");
    await page.context().close();
  });

  await step("'Sign out other sessions' ends the session in another browser and keeps this one", async () => {
    const signIn = async () => {
      const page = await newPage();
      await page.goto("/auth");
      await page.locator("#login-username").fill("ada");
      await page.locator("#login-password").fill("correct horse");
      await page.getByRole("button", { name: "Sign In" }).click();
      await page.getByTestId("display-name").waitFor();
      return page;
    };
    const laptop = await signIn();
    const phone = await signIn();
    await phone.getByRole("button", { name: "Sign out other sessions" }).click();
    await phone.getByText(/^Signed out of \d+ other sessions?\.$/).waitFor();
    assert.equal(await laptop.evaluate(async () => await (await fetch("/api/user")).json()), null);
    assert.notEqual(await phone.evaluate(async () => await (await fetch("/api/user")).json()), null);
    await laptop.context().close();
    await phone.context().close();
  });

  await step("an unknown path shows the 404 page with status 404", async () => {
    const page = await newPage();
    const res = await page.goto("/no-such-page");
    assert.equal(res?.status(), 404);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
    await page.context().close();
  });
});

import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema.ts";
import { LOCAL_PERIOD_SECONDS } from "../../server/services/billing/effective-status.ts";
import { createTestApp, jsonInit, signUp, type TestApp } from "../setup/app-harness.ts";
import { FakeStripe, fakeStripeBilling } from "../setup/fake-stripe.ts";

const post = (t: TestApp, path: string, cookie: string, body?: unknown) =>
  t.request(
    path,
    body === undefined ? { method: "POST", headers: { Cookie: cookie } } : jsonInit("POST", body, { Cookie: cookie }),
  );
const get = (t: TestApp, path: string, cookie: string) => t.request(path, { headers: { Cookie: cookie } });

/** create-subscription, then the session id out of the returned test checkout URL. */
async function startCheckout(t: TestApp, cookie: string): Promise<string> {
  const res = await post(t, "/api/create-subscription", cookie, {});
  assert.equal(res.status, 200);
  const { sessionUrl } = await res.json();
  const match = /^\/billing\/test-checkout\/([^/]+)$/.exec(sessionUrl);
  assert.ok(match, `unexpected sessionUrl ${sessionUrl}`);
  return decodeURIComponent(match[1]!);
}

async function subscribeLocally(t: TestApp, cookie: string): Promise<string> {
  const id = await startCheckout(t, cookie);
  const paid = await post(t, `/api/test-billing/${id}/pay`, cookie);
  assert.equal(paid.status, 200);
  return id;
}

Deno.test("GET /api/config reports local test billing and house ads when nothing is configured", async () => {
  const t = await createTestApp();
  const res = await t.request("/api/config");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { billingMode: "test", adsenseClient: null, adSlots: {} });
  await t.close();
});

Deno.test("POST /api/create-subscription answers 401 when signed out", async () => {
  const t = await createTestApp();
  const res = await t.request("/api/create-subscription", jsonInit("POST", {}));
  assert.equal(res.status, 401);
  await t.close();
});

Deno.test("POST /api/create-subscription under local test billing returns a test checkout page of this site", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const id = await startCheckout(t, cookie);
  const view = await get(t, `/api/test-billing/${id}`, cookie);
  assert.equal(view.status, 200);
  assert.deepEqual(await view.json(), { id, status: "open", plan: "Premium", price: "$9.99/month", periodDays: 30 });
  await t.close();
});

Deno.test("a test checkout session is invisible to another user and a malformed id is a 400", async () => {
  const t = await createTestApp();
  const alice = await signUp(t, "alice");
  const bob = await signUp(t, "bob");
  const id = await startCheckout(t, alice.cookie);
  assert.equal((await get(t, `/api/test-billing/${id}`, bob.cookie)).status, 404);
  assert.equal((await post(t, `/api/test-billing/${id}/pay`, bob.cookie)).status, 404);
  const bad = await get(t, "/api/test-billing/not-a-session", alice.cookie);
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).error, /sessionId/);
  // Bob's attempts changed nothing for either of them.
  assert.equal((await (await get(t, "/api/user", bob.cookie)).json()).subscriptionStatus, "free");
  assert.equal((await (await get(t, `/api/test-billing/${id}`, alice.cookie)).json()).status, "open");
  await t.close();
});

Deno.test("paying a test checkout makes the user Premium for 30 days and lifts the limits at once", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  assert.equal((await (await get(t, "/api/usage", cookie)).json()).limit, 10);
  const id = await startCheckout(t, cookie);
  const before = Math.floor(Date.now() / 1000);
  const res = await post(t, `/api/test-billing/${id}/pay`, cookie);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { redirectTo: "/subscribe?checkout=success" });

  assert.equal((await (await get(t, "/api/user", cookie)).json()).subscriptionStatus, "active");
  const status = await (await get(t, "/api/subscription/status", cookie)).json();
  assert.equal(status.hasActiveSubscription, true);
  assert.equal(status.subscriptionStatus, "active");
  assert.equal(status.cancelAtPeriodEnd, false);
  assert.equal(status.message, null);
  assert.ok(Math.abs(status.currentPeriodEnd - (before + LOCAL_PERIOD_SECONDS)) <= 2);
  assert.equal((await (await get(t, "/api/usage", cookie)).json()).limit, null);
  assert.equal((await (await get(t, `/api/test-billing/${id}`, cookie)).json()).status, "paid");
  await t.close();
});

Deno.test("a paid test checkout cannot be paid again and a subscriber gets 409 from create-subscription", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const id = await subscribeLocally(t, cookie);
  const again = await post(t, `/api/test-billing/${id}/pay`, cookie);
  assert.equal(again.status, 409);
  assert.match((await again.json()).error, /already paid/);
  const second = await post(t, "/api/create-subscription", cookie, {});
  assert.equal(second.status, 409);
  assert.equal((await second.json()).error, "You already have an active premium subscription");
  await t.close();
});

Deno.test("cancelling a test checkout leaves the user free and the session unpayable", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const id = await startCheckout(t, cookie);
  const res = await post(t, `/api/test-billing/${id}/cancel`, cookie);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { redirectTo: "/subscribe?checkout=cancelled" });
  assert.equal((await post(t, `/api/test-billing/${id}/pay`, cookie)).status, 409);
  assert.equal((await (await get(t, "/api/user", cookie)).json()).subscriptionStatus, "free");
  await t.close();
});

Deno.test("GET /api/subscription/status of a free user", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const res = await get(t, "/api/subscription/status", cookie);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {
    hasActiveSubscription: false,
    subscriptionStatus: "free",
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    message: null,
  });
  assert.equal((await t.request("/api/subscription/status")).status, 401);
  await t.close();
});

Deno.test("POST /api/subscription/cancel keeps Premium until the period end and says when it ends", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  await subscribeLocally(t, cookie);
  const { currentPeriodEnd } = await (await get(t, "/api/subscription/status", cookie)).json();
  const res = await post(t, "/api/subscription/cancel", cookie);
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.success, true);
  const day = new Date(currentPeriodEnd * 1000).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
  assert.equal(body.message, `Your subscription will not renew. You keep Premium until ${day}.`);

  const status = await (await get(t, "/api/subscription/status", cookie)).json();
  assert.equal(status.cancelAtPeriodEnd, true);
  assert.equal(status.hasActiveSubscription, true);
  assert.equal(status.currentPeriodEnd, currentPeriodEnd);
  // Cancelling twice is harmless.
  assert.equal((await post(t, "/api/subscription/cancel", cookie)).status, 200);
  await t.close();
});

Deno.test("POST /api/subscription/cancel by a free user answers 409", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const res = await post(t, "/api/subscription/cancel", cookie);
  assert.equal(res.status, 409);
  assert.match((await res.json()).error, /no active subscription/);
  await t.close();
});

Deno.test("the plan switches back to free once a cancelled period has ended, and the row says so", async () => {
  const t = await createTestApp();
  const { cookie, user } = await signUp(t);
  await subscribeLocally(t, cookie);
  await post(t, "/api/subscription/cancel", cookie);
  const ended = Math.floor(Date.now() / 1000) - 1;
  await t.db.update(users).set({ currentPeriodEnd: ended }).where(eq(users.id, user.id));

  assert.equal((await (await get(t, "/api/user", cookie)).json()).subscriptionStatus, "canceled");
  const status = await (await get(t, "/api/subscription/status", cookie)).json();
  assert.equal(status.hasActiveSubscription, false);
  assert.equal(status.cancelAtPeriodEnd, false);
  assert.match(status.message, /ended/);
  assert.equal((await (await get(t, "/api/usage", cookie)).json()).limit, 10);
  const row = await t.db.query.users.findFirst({ where: eq(users.id, user.id) });
  assert.equal(row?.subscriptionStatus, "canceled");
  // And the user can subscribe again.
  await subscribeLocally(t, cookie);
  assert.equal((await (await get(t, "/api/user", cookie)).json()).subscriptionStatus, "active");
  await t.close();
});

Deno.test("a local test subscription ends after its 30 days even when not cancelled", async () => {
  const t = await createTestApp();
  const { cookie, user } = await signUp(t);
  await subscribeLocally(t, cookie);
  await t.db.update(users).set({ currentPeriodEnd: Math.floor(Date.now() / 1000) - 1 }).where(eq(users.id, user.id));
  assert.equal((await (await get(t, "/api/user", cookie)).json()).subscriptionStatus, "canceled");
  await t.close();
});

Deno.test("POST /api/billing/portal and /api/stripe/webhook answer 404 under local test billing", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const portal = await post(t, "/api/billing/portal", cookie);
  assert.equal(portal.status, 404);
  assert.match((await portal.json()).error, /needs Stripe/);
  const hook = await t.request("/api/stripe/webhook", { method: "POST", body: "{}" });
  assert.equal(hook.status, 404);
  await t.close();
});

Deno.test("the test-billing routes do not exist when Stripe keys are set", async () => {
  const fake = new FakeStripe();
  const t = await createTestApp({ billing: fakeStripeBilling(fake) });
  const { cookie } = await signUp(t);
  const id = "cs_local_aaaaaaaaaaaaaaaaaaaaaaaa";
  for (
    const [method, path] of [["GET", `/api/test-billing/${id}`], ["POST", `/api/test-billing/${id}/pay`], [
      "POST",
      `/api/test-billing/${id}/cancel`,
    ]] as const
  ) {
    const res = await t.request(path, { method, headers: { Cookie: cookie } });
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.match((await res.json()).error, /No API route/);
  }
  assert.equal((await (await t.request("/api/config")).json()).billingMode, "stripe");
  await t.close();
  await fake.close();
});

Deno.test("the CSP allows the AdSense hosts only when ADSENSE_CLIENT is configured", async () => {
  const plain = await createTestApp();
  const csp = (await plain.request("/healthz")).headers.get("content-security-policy") ?? "";
  assert.doesNotMatch(csp, /googlesyndication|doubleclick|frame-src/);
  assert.match(csp, /script-src 'self'(;|$)/);
  await plain.close();

  const ads = await createTestApp({ adsense: { client: "ca-pub-1234567890", slots: { landing: "1111111111" } } });
  const res = await ads.request("/healthz");
  const adCsp = res.headers.get("content-security-policy") ?? "";
  assert.match(adCsp, /script-src 'self' https:\/\/pagead2\.googlesyndication\.com/);
  assert.match(adCsp, /frame-src [^;]*doubleclick\.net/);
  assert.match(adCsp, /frame-ancestors 'none'/);
  const config = await (await ads.request("/api/config")).json();
  assert.deepEqual(config, {
    billingMode: "test",
    adsenseClient: "ca-pub-1234567890",
    adSlots: { landing: "1111111111" },
  });
  await ads.close();
});

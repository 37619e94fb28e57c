/** Billing through the real `stripe` SDK against a fake Stripe API and signed webhooks. */
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema.ts";
import { createTestApp, jsonInit, signUp, type TestApp } from "../setup/app-harness.ts";
import {
  FakeStripe,
  fakeStripeBilling,
  type FakeSubscription,
  PRICE_ID,
  signedEvent,
  subscriptionObject,
} from "../setup/fake-stripe.ts";
import { expectConsoleError } from "../setup/fail-on-console-error.ts";

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

async function stripeApp(publicUrl: string | null = "https://squeeze.example") {
  const fake = new FakeStripe();
  const t = await createTestApp({ billing: fakeStripeBilling(fake, publicUrl) });
  return {
    fake,
    t,
    async close() {
      await t.close();
      await fake.close();
    },
  };
}

const get = (t: TestApp, path: string, cookie: string) => t.request(path, { headers: { Cookie: cookie } });
const post = (t: TestApp, path: string, cookie: string) => t.request(path, jsonInit("POST", {}, { Cookie: cookie }));

/** Delivers a webhook the way Stripe does: raw JSON, a signature header, no cookie or Origin. */
function deliver(t: TestApp, event: { payload: string; signature: string }) {
  return t.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature },
    body: event.payload,
  });
}

/** What Stripe holds now: subscription events are applied from it, not from their (possibly stale) payload. */
function stripeHolds(ctx: Awaited<ReturnType<typeof stripeApp>>, sub: FakeSubscription) {
  ctx.fake.subscriptions.set(sub.id, sub);
}

const userRow = (t: TestApp, id: number) => t.db.query.users.findFirst({ where: eq(users.id, id) });

/** A user whose checkout completed for `sub` (the fake knows the subscription). */
async function subscribedUser(
  ctx: Awaited<ReturnType<typeof stripeApp>>,
  username = "alice",
  sub?: Partial<FakeSubscription>,
) {
  const { cookie, user } = await signUp(ctx.t, username);
  const subscription: FakeSubscription = {
    id: `sub_${username}`,
    customer: `cus_${username}`,
    status: "active",
    currentPeriodEnd: now() + 30 * DAY,
    metadata: { userId: String(user.id) },
    ...sub,
  };
  ctx.fake.subscriptions.set(subscription.id, subscription);
  const event = await signedEvent("checkout.session.completed", {
    id: `cs_test_${username}`,
    object: "checkout.session",
    mode: "subscription",
    client_reference_id: String(user.id),
    customer: subscription.customer,
    subscription: subscription.id,
  });
  const res = await deliver(ctx.t, event);
  assert.equal(res.status, 200);
  return { cookie, user, subscription };
}

Deno.test("POST /api/create-subscription sends Stripe a subscription Checkout Session for our price, user and return URLs", async () => {
  const ctx = await stripeApp("https://squeeze.example/some/path");
  const { cookie, user } = await signUp(ctx.t, "alice", "correct horse", { email: "alice@example.com" });
  const res = await post(ctx.t, "/api/create-subscription", cookie);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { sessionUrl: "https://checkout.stripe.test/c/pay/cs_test_1" });

  const [call] = ctx.fake.calls("POST", "/v1/checkout/sessions");
  assert.ok(call);
  assert.equal(call.params["mode"], "subscription");
  assert.equal(call.params["line_items[0][price]"], PRICE_ID);
  assert.equal(call.params["line_items[0][quantity]"], "1");
  assert.equal(call.params["client_reference_id"], String(user.id));
  assert.equal(call.params["subscription_data[metadata][userId]"], String(user.id));
  assert.equal(call.params["success_url"], "https://squeeze.example/subscribe?checkout=success");
  assert.equal(call.params["cancel_url"], "https://squeeze.example/subscribe?checkout=cancelled");
  // A new customer: Stripe creates one, prefilled with the email.
  assert.equal(call.params["customer"], undefined);
  assert.equal(call.params["customer_email"], "alice@example.com");
  assert.equal(call.headers.get("authorization"), "Bearer sk_test_fake");
  await ctx.close();
});

Deno.test("POST /api/create-subscription falls back to the request's origin without PUBLIC_URL", async () => {
  const ctx = await stripeApp(null);
  const { cookie } = await signUp(ctx.t);
  assert.equal((await post(ctx.t, "/api/create-subscription", cookie)).status, 200);
  const [call] = ctx.fake.calls("POST", "/v1/checkout/sessions");
  assert.equal(call?.params["success_url"], "http://localhost/subscribe?checkout=success");
  await ctx.close();
});

Deno.test("POST /api/create-subscription reuses the Stripe customer of a returning subscriber", async () => {
  const ctx = await stripeApp();
  const { cookie, user } = await signUp(ctx.t);
  await ctx.t.db.update(users).set({ stripeCustomerId: "cus_existing", subscriptionStatus: "canceled" })
    .where(eq(users.id, user.id));
  assert.equal((await post(ctx.t, "/api/create-subscription", cookie)).status, 200);
  const [call] = ctx.fake.calls("POST", "/v1/checkout/sessions");
  assert.equal(call?.params["customer"], "cus_existing");
  assert.equal(call?.params["customer_email"], undefined);
  await ctx.close();
});

Deno.test("POST /api/create-subscription answers 502 in our words when Stripe fails", async () => {
  const ctx = await stripeApp();
  const { cookie } = await signUp(ctx.t);
  ctx.fake.failing.add("/v1/checkout/sessions");
  // Stripe's own words go to the log, once; the user reads ours.
  const { lines } = await expectConsoleError(
    /^\{"level":"error","msg":"Stripe: start the checkout failed","error":"/,
    async () => {
      const res = await post(ctx.t, "/api/create-subscription", cookie);
      assert.equal(res.status, 502);
      assert.equal((await res.json()).error, "The payment provider could not start the checkout; please try again");
    },
  );
  assert.equal(lines.length, 1);
  await ctx.close();
});

Deno.test("a signed checkout.session.completed makes the user Premium with Stripe's period end", async () => {
  const ctx = await stripeApp();
  const { cookie, user, subscription } = await subscribedUser(ctx);
  assert.equal(ctx.fake.calls("GET", `/v1/subscriptions/${subscription.id}`).length, 1);
  const row = await userRow(ctx.t, user.id);
  assert.equal(row?.subscriptionStatus, "active");
  assert.equal(row?.stripeCustomerId, subscription.customer);
  assert.equal(row?.stripeSubscriptionId, subscription.id);
  assert.equal(row?.currentPeriodEnd, subscription.currentPeriodEnd);
  assert.equal((await (await get(ctx.t, "/api/user", cookie)).json()).subscriptionStatus, "active");
  assert.equal((await (await get(ctx.t, "/api/usage", cookie)).json()).limit, null);
  // A subscriber is refused a second checkout.
  const again = await post(ctx.t, "/api/create-subscription", cookie);
  assert.equal(again.status, 409);
  await ctx.close();
});

Deno.test("a webhook with a tampered body, a wrong secret or no signature answers 400 and changes nothing", async () => {
  const ctx = await stripeApp();
  const { user } = await signUp(ctx.t);
  ctx.fake.subscriptions.set("sub_x", {
    id: "sub_x",
    customer: "cus_x",
    status: "active",
    currentPeriodEnd: now() + DAY,
  });
  const event = await signedEvent("checkout.session.completed", {
    id: "cs_test_x",
    object: "checkout.session",
    mode: "subscription",
    client_reference_id: String(user.id),
    customer: "cus_x",
    subscription: "sub_x",
  });
  const tampered = { ...event, payload: event.payload.replace(String(user.id), String(user.id + 1)) };
  assert.notEqual(tampered.payload, event.payload);
  const wrongSecret = await signedEvent(
    "checkout.session.completed",
    JSON.parse(event.payload).data.object,
    event.id,
    "whsec_other",
  );

  for (const bad of [tampered, wrongSecret, { payload: event.payload, signature: "" }]) {
    const res = await deliver(ctx.t, bad);
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, /signature/i);
  }
  assert.equal((await userRow(ctx.t, user.id))?.subscriptionStatus, "free");
  // The genuine delivery still works afterwards: the rejected ones were not recorded.
  assert.equal((await deliver(ctx.t, event)).status, 200);
  assert.equal((await userRow(ctx.t, user.id))?.subscriptionStatus, "active");
  await ctx.close();
});

Deno.test("a replayed webhook event has no second effect", async () => {
  const ctx = await stripeApp();
  const { user, subscription } = await subscribedUser(ctx);
  const cancelling = await signedEvent(
    "customer.subscription.updated",
    subscriptionObject({ ...subscription, cancelAtPeriodEnd: true }),
  );
  stripeHolds(ctx, { ...subscription, cancelAtPeriodEnd: true });
  const first = await deliver(ctx.t, cancelling);
  assert.equal(first.status, 200);
  assert.deepEqual(await first.json(), { received: true, outcome: "applied" });
  assert.equal((await userRow(ctx.t, user.id))?.cancelAtPeriodEnd, true);

  // The customer changes their mind (a later event), then the first event is delivered again.
  const resumed = await signedEvent(
    "customer.subscription.updated",
    subscriptionObject({ ...subscription, cancelAtPeriodEnd: false }),
  );
  stripeHolds(ctx, { ...subscription, cancelAtPeriodEnd: false });
  assert.equal((await deliver(ctx.t, resumed)).status, 200);
  const replay = await deliver(ctx.t, cancelling);
  assert.equal(replay.status, 200);
  assert.deepEqual(await replay.json(), { received: true, outcome: "duplicate" });
  assert.equal((await userRow(ctx.t, user.id))?.cancelAtPeriodEnd, false);
  await ctx.close();
});

Deno.test("customer.subscription.deleted sends the user back to the free plan", async () => {
  const ctx = await stripeApp();
  const { cookie, user, subscription } = await subscribedUser(ctx);
  const ended = { ...subscription, status: "canceled", currentPeriodEnd: now() };
  const deleted = await signedEvent("customer.subscription.deleted", subscriptionObject(ended));
  stripeHolds(ctx, ended);
  assert.equal((await deliver(ctx.t, deleted)).status, 200);
  assert.equal((await userRow(ctx.t, user.id))?.subscriptionStatus, "canceled");
  assert.equal((await (await get(ctx.t, "/api/user", cookie)).json()).subscriptionStatus, "canceled");
  const status = await (await get(ctx.t, "/api/subscription/status", cookie)).json();
  assert.equal(status.hasActiveSubscription, false);
  assert.match(status.message, /ended/);
  assert.equal((await (await get(ctx.t, "/api/usage", cookie)).json()).limit, 10);
  await ctx.close();
});

Deno.test("a late deletion of an old subscription does not end the user's newer one", async () => {
  const ctx = await stripeApp();
  const { user, subscription } = await subscribedUser(ctx);
  const old = { ...subscription, id: "sub_old", status: "canceled" };
  stripeHolds(ctx, old);
  const late = await signedEvent("customer.subscription.deleted", subscriptionObject(old));
  const res = await deliver(ctx.t, late);
  assert.deepEqual(await res.json(), { received: true, outcome: "ignored" });
  const row = await userRow(ctx.t, user.id);
  assert.equal(row?.subscriptionStatus, "active");
  assert.equal(row?.stripeSubscriptionId, subscription.id);
  await ctx.close();
});

Deno.test("customer.subscription.created links a subscription by its metadata before checkout completes", async () => {
  const ctx = await stripeApp();
  const { user } = await signUp(ctx.t);
  const trial: FakeSubscription = {
    id: "sub_new",
    customer: "cus_new",
    status: "trialing",
    currentPeriodEnd: now() + 7 * DAY,
    metadata: { userId: String(user.id) },
  };
  stripeHolds(ctx, trial);
  const created = await signedEvent("customer.subscription.created", subscriptionObject(trial));
  assert.equal((await deliver(ctx.t, created)).status, 200);
  const row = await userRow(ctx.t, user.id);
  assert.equal(row?.subscriptionStatus, "trialing");
  assert.equal(row?.stripeCustomerId, "cus_new");
  await ctx.close();
});

Deno.test("a past_due subscription or a failed invoice ends Premium with a message for the card", async () => {
  const ctx = await stripeApp();
  const { cookie, user, subscription } = await subscribedUser(ctx);
  const failed = await signedEvent("invoice.payment_failed", {
    id: "in_1",
    object: "invoice",
    customer: subscription.customer,
    parent: { type: "subscription_details", subscription_details: { subscription: subscription.id } },
  });
  stripeHolds(ctx, { ...subscription, status: "past_due" });
  assert.equal((await deliver(ctx.t, failed)).status, 200);
  assert.equal((await userRow(ctx.t, user.id))?.subscriptionStatus, "past_due");
  const status = await (await get(ctx.t, "/api/subscription/status", cookie)).json();
  assert.equal(status.hasActiveSubscription, false);
  assert.equal(status.message, "Your last payment failed; update your card to keep Premium");

  const paid = await signedEvent("customer.subscription.updated", subscriptionObject(subscription));
  stripeHolds(ctx, subscription);
  assert.equal((await deliver(ctx.t, paid)).status, 200);
  assert.equal((await userRow(ctx.t, user.id))?.subscriptionStatus, "active");

  // [regression] the failed invoice's retry arrives after the recovery: Stripe says active, so active it stays.
  const retried = await signedEvent("invoice.payment_failed", JSON.parse(failed.payload).data.object);
  assert.equal((await deliver(ctx.t, retried)).status, 200);
  assert.equal((await userRow(ctx.t, user.id))?.subscriptionStatus, "active");
  await ctx.close();
});

Deno.test("[regression] an older subscription.updated delivered after subscription.deleted does not revive Premium", async () => {
  const ctx = await stripeApp();
  const { user, subscription } = await subscribedUser(ctx);
  const olderActive = await signedEvent("customer.subscription.updated", subscriptionObject(subscription));
  const ended = { ...subscription, status: "canceled", currentPeriodEnd: now() };
  stripeHolds(ctx, ended);
  const deleted = await signedEvent("customer.subscription.deleted", subscriptionObject(ended));
  assert.equal((await deliver(ctx.t, deleted)).status, 200);
  assert.equal((await deliver(ctx.t, olderActive)).status, 200);
  const row = await userRow(ctx.t, user.id);
  assert.equal(row?.subscriptionStatus, "canceled");
  assert.equal(ctx.fake.calls("GET", `/v1/subscriptions/${subscription.id}`).length >= 2, true);
  await ctx.close();
});

Deno.test("an event type we do not handle answers 200 and changes nothing", async () => {
  const ctx = await stripeApp();
  const { user } = await subscribedUser(ctx);
  const other = await signedEvent("customer.created", { id: "cus_zzz", object: "customer" });
  const res = await deliver(ctx.t, other);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { received: true, outcome: "ignored" });
  assert.equal((await userRow(ctx.t, user.id))?.subscriptionStatus, "active");
  await ctx.close();
});

Deno.test("POST /api/subscription/cancel asks Stripe to cancel at period end and keeps Premium until then", async () => {
  const ctx = await stripeApp();
  const { cookie, subscription } = await subscribedUser(ctx);
  const res = await post(ctx.t, "/api/subscription/cancel", cookie);
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.success, true);
  assert.match(body.message, /You keep Premium until/);
  const [call] = ctx.fake.calls("POST", `/v1/subscriptions/${subscription.id}`);
  assert.equal(call?.params["cancel_at_period_end"], "true");
  const status = await (await get(ctx.t, "/api/subscription/status", cookie)).json();
  assert.deepEqual(status, {
    hasActiveSubscription: true,
    subscriptionStatus: "active",
    currentPeriodEnd: subscription.currentPeriodEnd,
    cancelAtPeriodEnd: true,
    message: null,
  });
  await ctx.close();
});

Deno.test("POST /api/billing/portal returns a Customer Portal URL for the user's Stripe customer", async () => {
  const ctx = await stripeApp();
  const free = await signUp(ctx.t, "freeuser");
  assert.equal((await post(ctx.t, "/api/billing/portal", free.cookie)).status, 409);
  const { cookie, subscription } = await subscribedUser(ctx);
  const res = await post(ctx.t, "/api/billing/portal", cookie);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { url: `https://billing.stripe.test/p/session/${subscription.customer}` });
  const [call] = ctx.fake.calls("POST", "/v1/billing_portal/sessions");
  assert.equal(call?.params["return_url"], "https://squeeze.example/");
  await ctx.close();
});

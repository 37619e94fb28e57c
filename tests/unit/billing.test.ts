import assert from "node:assert/strict";
import type Stripe from "stripe";
import { createBilling } from "../../server/services/billing/create-billing.ts";
import {
  type BillingFields,
  effectiveSubscriptionStatus,
  LOCAL_SUBSCRIPTION_PREFIX,
} from "../../server/services/billing/effective-status.ts";
import { fromStripeStatus, subscriptionStatusOf } from "../../server/services/billing/status-messages.ts";
import { patchFromSubscription, periodEndOf } from "../../server/services/billing/stripe-events.ts";
import { parseAdSlots } from "../../contract/ads.ts";
import { contentSecurityPolicy } from "../../server/middleware/security-headers.ts";

const NOW_MS = Date.UTC(2025, 5, 1);
const NOW_S = NOW_MS / 1000;

const user = (fields: Partial<BillingFields>): BillingFields => ({
  subscriptionStatus: "active",
  stripeSubscriptionId: "sub_1",
  currentPeriodEnd: NOW_S + 3600,
  cancelAtPeriodEnd: false,
  ...fields,
});

const cases: Array<[string, Partial<BillingFields>, string]> = [
  [
    "a free user stays free",
    { subscriptionStatus: "free", currentPeriodEnd: null, stripeSubscriptionId: null },
    "free",
  ],
  ["an active subscription within its period stays active", {}, "active"],
  ["a trialing subscription within its period stays trialing", { subscriptionStatus: "trialing" }, "trialing"],
  ["a cancelling subscription stays active until its period ends", { cancelAtPeriodEnd: true }, "active"],
  [
    "a cancelling subscription whose period ended is canceled",
    { cancelAtPeriodEnd: true, currentPeriodEnd: NOW_S },
    "canceled",
  ],
  ["a renewing Stripe subscription past its period end waits for Stripe", { currentPeriodEnd: NOW_S - 60 }, "active"],
  [
    "a local test subscription past its 30 days is canceled",
    { stripeSubscriptionId: `${LOCAL_SUBSCRIPTION_PREFIX}cs_local_x`, currentPeriodEnd: NOW_S - 1 },
    "canceled",
  ],
  [
    "a local test subscription within its 30 days is active",
    { stripeSubscriptionId: `${LOCAL_SUBSCRIPTION_PREFIX}cs_local_x` },
    "active",
  ],
  ["a premium row without a period end stays premium", { currentPeriodEnd: null, cancelAtPeriodEnd: true }, "active"],
  ["a past_due row stays past_due", { subscriptionStatus: "past_due", currentPeriodEnd: NOW_S - 1 }, "past_due"],
  ["an unknown stored status counts as canceled", { subscriptionStatus: "mystery" }, "canceled"],
];
for (const [name, fields, expected] of cases) {
  Deno.test(`effectiveSubscriptionStatus: ${name}`, () => {
    assert.equal(effectiveSubscriptionStatus(user(fields), NOW_MS), expected);
  });
}

Deno.test("subscriptionStatusOf reports an ended cancelling period as not premium and not cancelling", () => {
  const status = subscriptionStatusOf(user({ cancelAtPeriodEnd: true, currentPeriodEnd: NOW_S - 5 }), NOW_MS);
  assert.equal(status.hasActiveSubscription, false);
  assert.equal(status.subscriptionStatus, "canceled");
  assert.equal(status.cancelAtPeriodEnd, false);
  assert.equal(status.currentPeriodEnd, NOW_S - 5);
  assert.ok(status.message);
});

Deno.test("fromStripeStatus keeps Stripe's statuses and treats unknown ones as canceled", () => {
  for (
    const s of ["active", "trialing", "past_due", "canceled", "unpaid", "incomplete", "incomplete_expired", "paused"]
  ) {
    assert.equal(fromStripeStatus(s), s);
  }
  assert.equal(fromStripeStatus("free"), "canceled");
  assert.equal(fromStripeStatus("something_new"), "canceled");
});

const sub = (fields: Record<string, unknown>) =>
  ({
    id: "sub_1",
    customer: "cus_1",
    status: "active",
    cancel_at_period_end: false,
    cancel_at: null,
    items: { data: [{ current_period_end: 2000 }] },
    ...fields,
  }) as unknown as Stripe.Subscription;

Deno.test("periodEndOf reads the items' period (API 2025+), the legacy field, and a scheduled cancel_at", () => {
  assert.equal(periodEndOf(sub({})), 2000);
  assert.equal(periodEndOf(sub({ items: { data: [] }, current_period_end: 1500 })), 1500);
  assert.equal(periodEndOf(sub({ items: { data: [] } })), null);
  assert.equal(periodEndOf(sub({ cancel_at: 1800 })), 1800);
});

Deno.test("patchFromSubscription marks a portal-scheduled cancellation as cancelling", () => {
  assert.deepEqual(patchFromSubscription(sub({ cancel_at: 1800, customer: { id: "cus_9" } })), {
    subscriptionStatus: "active",
    stripeSubscriptionId: "sub_1",
    stripeCustomerId: "cus_9",
    currentPeriodEnd: 1800,
    cancelAtPeriodEnd: true,
  });
});

Deno.test("createBilling picks local test billing only when no Stripe key is set", () => {
  const original = console.log;
  console.log = () => {};
  try {
    assert.equal(createBilling({}).mode, "test");
  } finally {
    console.log = original;
  }
  const stripe = createBilling({ STRIPE_SECRET_KEY: "sk", STRIPE_WEBHOOK_SECRET: "wh", STRIPE_PRICE_ID: "price" });
  assert.equal(stripe.mode, "stripe");
  assert.throws(() => createBilling({ STRIPE_SECRET_KEY: "sk" }), /set together/);
});

Deno.test("parseAdSlots reads placement=id pairs", () => {
  assert.deepEqual(parseAdSlots("landing=1234567890,article=987654"), { landing: "1234567890", article: "987654" });
  assert.deepEqual(parseAdSlots(undefined), {});
});

Deno.test("contentSecurityPolicy widens only for AdSense", () => {
  assert.equal(contentSecurityPolicy(), contentSecurityPolicy({ adsense: false }));
  assert.doesNotMatch(contentSecurityPolicy(), /https:/);
  assert.match(contentSecurityPolicy({ adsense: true }), /img-src 'self' data: blob: https:/);
});

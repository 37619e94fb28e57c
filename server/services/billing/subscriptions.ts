/** Subscription use cases behind the billing routes; the provider does the paying. */
import { isPremium } from "../../../contract/accounts.ts";
import type { Db } from "../../../db/client.ts";
import {
  expireSubscription,
  findUserByStripeCustomer,
  findUserByStripeSubscription,
  isBillingEventRecorded,
  recordBillingEvent,
  updateUserBilling,
} from "../../../db/queries/billing.ts";
import { findUserById } from "../../../db/queries/users.ts";
import type { UserRow } from "../../../db/schema.ts";
import { DomainError } from "../../domain-error.ts";
import { effectiveSubscriptionStatus, withEffectiveStatus } from "./effective-status.ts";
import type { BillingChange, BillingProvider, UserMatch } from "./provider.ts";
import { log } from "../../log.ts";

export const ALREADY_SUBSCRIBED = "You already have an active premium subscription";

/** Where checkout returns to: PUBLIC_URL when set, else the origin the request came to. */
export function checkoutUrls(billing: BillingProvider, requestOrigin: string) {
  const base = billing.publicUrl ?? requestOrigin;
  return {
    successUrl: `${base}/subscribe?checkout=success`,
    cancelUrl: `${base}/subscribe?checkout=cancelled`,
  };
}

export async function startSubscription(
  db: Db,
  billing: BillingProvider,
  user: UserRow,
  requestOrigin: string,
): Promise<{ sessionUrl: string }> {
  if (isPremium(effectiveSubscriptionStatus(user, Date.now()))) throw new DomainError("conflict", ALREADY_SUBSCRIBED);
  const sessionUrl = await billing.createCheckout(db, user, checkoutUrls(billing, requestOrigin));
  return { sessionUrl };
}

const formatDay = (unixSeconds: number) =>
  new Date(unixSeconds * 1000).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

export async function cancelSubscription(
  db: Db,
  billing: BillingProvider,
  user: UserRow,
): Promise<{ success: true; message: string }> {
  if (!isPremium(effectiveSubscriptionStatus(user, Date.now()))) {
    throw new DomainError("conflict", "You have no active subscription to cancel");
  }
  const patch = user.cancelAtPeriodEnd ? {} : await billing.cancelAtPeriodEnd(user);
  const updated = Object.keys(patch).length > 0 ? await updateUserBilling(db, user.id, patch) : user;
  const end = updated?.currentPeriodEnd ?? user.currentPeriodEnd;
  return {
    success: true,
    message: end
      ? `Your subscription will not renew. You keep Premium until ${formatDay(end)}.`
      : "Your subscription will not renew.",
  };
}

async function findUserFor(db: Db, match: UserMatch): Promise<UserRow | undefined> {
  if (match.userId !== undefined) {
    const user = await findUserById(db, match.userId);
    if (user) return user;
  }
  if (match.subscriptionId) {
    const user = await findUserByStripeSubscription(db, match.subscriptionId);
    if (user) return user;
  }
  return match.customerId ? await findUserByStripeCustomer(db, match.customerId) : undefined;
}

/**
 * A change about a subscription the user has since replaced by another premium
 * one is stale: e.g. the deletion of an old subscription must not end the new one.
 */
function isStale(user: UserRow, change: BillingChange, nowMs: number): boolean {
  return change.subscriptionId !== null && user.stripeSubscriptionId !== null &&
    user.stripeSubscriptionId !== change.subscriptionId &&
    isPremium(effectiveSubscriptionStatus(user, nowMs));
}

export type WebhookResult = { received: true; outcome: "applied" | "ignored" | "duplicate" };

/**
 * POST /api/stripe/webhook: verify, skip events already applied, apply the
 * change and record the event id together. Answers 200 to ignored types.
 */
export async function handleWebhook(
  db: Db,
  billing: BillingProvider,
  rawBody: string,
  signature: string | undefined,
): Promise<WebhookResult> {
  const event = await billing.verifyWebhook(rawBody, signature);
  if (await isBillingEventRecorded(db, event.id)) return { received: true, outcome: "duplicate" };
  let change: BillingChange | null;
  try {
    change = await event.toChange();
  } catch (err) {
    // A non-2xx makes Stripe deliver the event again later.
    log.error("Stripe webhook not processed", { event: event.id, type: event.type, error: err });
    throw new DomainError("upstream_failed", "The event could not be processed; it will be retried", { cause: err });
  }
  const user = change ? await findUserFor(db, change.match) : undefined;
  if (change && !user) log.warn("Stripe webhook matches no user; ignored", { event: event.id, type: event.type });
  const apply = change && user && !isStale(user, change, Date.now()) ? { userId: user.id, patch: change.patch } : null;
  const fresh = await recordBillingEvent(db, event, apply);
  if (!fresh) return { received: true, outcome: "duplicate" };
  return { received: true, outcome: apply ? "applied" : "ignored" };
}

/**
 * The signed-in user with their effective plan. A premium period that has
 * ended is stored as ended the first time it is noticed, so readers of the
 * row that bypass this (e.g. the scheduler) see it too.
 */
export async function settleSubscription(db: Db, user: UserRow, nowMs: number): Promise<UserRow> {
  const effective = withEffectiveStatus(user, nowMs);
  if (effective === user) return user;
  await expireSubscription(db, user, effective.subscriptionStatus);
  return effective;
}

/** Turns Stripe webhook events into changes of a user's billing columns. */
import type Stripe from "stripe";
import type { BillingPatch } from "../../../db/queries/billing.ts";
import type { BillingChange } from "./provider.ts";
import { fromStripeStatus } from "./status-messages.ts";

/** The event types we act on; every other type is acknowledged and ignored. */
export const HANDLED_EVENTS = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.payment_failed",
] as const;

const idOf = (value: string | { id: string } | null | undefined): string | undefined =>
  typeof value === "string" ? value : value?.id;

function userIdFrom(value: string | null | undefined): number | undefined {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * The period end of a subscription: on its items since API version 2025-03-31
 * (basil), on the subscription itself before that. A scheduled cancellation
 * (`cancel_at`) ends Premium at that time.
 */
export function periodEndOf(sub: Stripe.Subscription): number | null {
  const legacy = (sub as unknown as { current_period_end?: number }).current_period_end;
  const ends = sub.items?.data?.map((i) => i.current_period_end).filter((n) => typeof n === "number") ?? [];
  const periodEnd = ends.length > 0 ? Math.max(...ends) : legacy ?? null;
  return sub.cancel_at ?? periodEnd;
}

/** The billing columns a subscription object implies. */
export function patchFromSubscription(sub: Stripe.Subscription): BillingPatch {
  if (sub.status === "canceled") {
    return {
      subscriptionStatus: "canceled",
      stripeSubscriptionId: sub.id,
      stripeCustomerId: idOf(sub.customer) ?? null,
      currentPeriodEnd: sub.ended_at ?? periodEndOf(sub),
      cancelAtPeriodEnd: false,
    };
  }
  return {
    subscriptionStatus: fromStripeStatus(sub.status),
    stripeSubscriptionId: sub.id,
    stripeCustomerId: idOf(sub.customer) ?? null,
    currentPeriodEnd: periodEndOf(sub),
    // The portal schedules cancellations with `cancel_at`; our cancel sets the flag.
    cancelAtPeriodEnd: sub.cancel_at_period_end || sub.cancel_at !== null,
  };
}

function invoiceSubscriptionId(invoice: Stripe.Invoice): string | undefined {
  const details = invoice.parent?.subscription_details?.subscription;
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(details) ?? idOf(legacy);
}

export async function changeFromEvent(
  event: Stripe.Event,
  retrieveSubscription: (id: string) => Promise<Stripe.Subscription>,
): Promise<BillingChange | null> {
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      const subscriptionId = idOf(session.subscription);
      if (session.mode !== "subscription" || !subscriptionId) return null;
      // The session only names the subscription; its status and period come from Stripe.
      const sub = await retrieveSubscription(subscriptionId);
      const customerId = idOf(session.customer);
      return {
        match: { userId: userIdFrom(session.client_reference_id), subscriptionId, customerId },
        patch: { ...patchFromSubscription(sub), ...(customerId ? { stripeCustomerId: customerId } : {}) },
        subscriptionId,
      };
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      // Events arrive out of order and are retried: the object in an event may be older than what
      // an earlier event applied. Stripe's current subscription is the state, whatever the order.
      const sub = await retrieveSubscription(event.data.object.id);
      return {
        match: { userId: userIdFrom(sub.metadata?.userId), subscriptionId: sub.id, customerId: idOf(sub.customer) },
        patch: patchFromSubscription(sub),
        subscriptionId: sub.id,
      };
    }
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscriptionId(invoice);
      if (!subscriptionId) return null;
      // A failure retried after the card was fixed must not undo the recovery: ask Stripe.
      const sub = await retrieveSubscription(subscriptionId);
      return { match: { subscriptionId }, patch: patchFromSubscription(sub), subscriptionId };
    }
    default:
      return null;
  }
}

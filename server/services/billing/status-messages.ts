import type { SubscriptionStatus } from "../../../contract/accounts.ts";
import { isPremium, SUBSCRIPTION_STATUSES } from "../../../contract/accounts.ts";
import type { SubscriptionStatusResponse } from "../../../contract/jobs.ts";
import type { BillingFields } from "./effective-status.ts";
import { effectiveSubscriptionStatus } from "./effective-status.ts";

/** Stripe's subscription status as ours; an unknown future value is not premium. */
export function fromStripeStatus(status: string): SubscriptionStatus {
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(status) && status !== "free"
    ? status as SubscriptionStatus
    : "canceled";
}

/** Why a status is not premium, in words the subscription card shows. */
const MESSAGES: Record<SubscriptionStatus, string | null> = {
  free: null,
  active: null,
  trialing: null,
  past_due: "Your last payment failed; update your card to keep Premium",
  unpaid: "Premium is on hold until the unpaid invoice is settled",
  canceled: "Your Premium subscription has ended; you are on the free plan",
  incomplete: "Your first payment has not gone through yet",
  incomplete_expired: "The checkout was not completed; subscribe again to get Premium",
  paused: "Your Premium subscription is paused",
};

export function statusMessage(status: SubscriptionStatus): string | null {
  return MESSAGES[status];
}

/** GET /api/subscription/status (spec §3), judged at `nowMs`. */
export function subscriptionStatusOf(user: BillingFields, nowMs: number): SubscriptionStatusResponse {
  const status = effectiveSubscriptionStatus(user, nowMs);
  const premium = isPremium(status);
  return {
    hasActiveSubscription: premium,
    subscriptionStatus: status,
    currentPeriodEnd: user.currentPeriodEnd,
    cancelAtPeriodEnd: premium && user.cancelAtPeriodEnd,
    message: statusMessage(status),
  };
}

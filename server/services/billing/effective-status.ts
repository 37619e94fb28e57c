import { type SQL, sql } from "drizzle-orm";
import type { SubscriptionStatus } from "../../../contract/accounts.ts";
import { isPremium, SUBSCRIPTION_STATUSES } from "../../../contract/accounts.ts";
import type { UserRow } from "../../../db/schema.ts";

/** Local test billing's subscriptions: 30 days of Premium that never renew. */
export const LOCAL_SUBSCRIPTION_PREFIX = "local_sub_";
export const LOCAL_PERIOD_SECONDS = 30 * 24 * 60 * 60;

export type BillingFields = Pick<
  UserRow,
  "subscriptionStatus" | "stripeSubscriptionId" | "currentPeriodEnd" | "cancelAtPeriodEnd"
>;

/** The stored status as a known value; anything unexpected counts as not premium. */
export function storedStatus(user: Pick<UserRow, "subscriptionStatus">): SubscriptionStatus {
  const s = user.subscriptionStatus;
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(s) ? s as SubscriptionStatus : "canceled";
}

/**
 * The status that decides the plan right now. A premium period that has ended
 * without renewal counts as "canceled" even before a webhook says so: a
 * subscription set to cancel at period end, or a local test subscription past
 * its 30 days. A Stripe subscription that renews keeps its status until Stripe
 * reports otherwise (its renewal moves currentPeriodEnd).
 */
export function effectiveSubscriptionStatus(user: BillingFields, nowMs: number): SubscriptionStatus {
  const status = storedStatus(user);
  if (!isPremium(status) || user.currentPeriodEnd === null) return status;
  const ended = nowMs >= user.currentPeriodEnd * 1000;
  const renews = !user.cancelAtPeriodEnd && !user.stripeSubscriptionId?.startsWith(LOCAL_SUBSCRIPTION_PREFIX);
  return ended && !renews ? "canceled" : status;
}

/** The row with its effective status, for everything that decides on the plan. */
export function withEffectiveStatus<U extends BillingFields>(user: U, nowMs: number): U {
  const status = effectiveSubscriptionStatus(user, nowMs);
  return status === user.subscriptionStatus ? user : { ...user, subscriptionStatus: status, cancelAtPeriodEnd: false };
}

/**
 * `isPremium(effectiveSubscriptionStatus(user, nowMs))`, the rule `planOf` decides by, in SQL over
 * the users row named `alias`: for queries that decide over many users at once (the shared queue's
 * order, lifecycle/queue-reads.ts). Kept beside the function it mirrors; a test runs both over the
 * same rows (tests/unit/effective-status.test.ts).
 */
export function premiumNowSql(nowMs: number, alias: string): SQL {
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  const premium = SUBSCRIPTION_STATUSES.filter(isPremium).map((s) => sql`${s}`);
  const prefix = LOCAL_SUBSCRIPTION_PREFIX;
  const renews = sql`(${column("cancel_at_period_end")} = 0 AND (${column("stripe_subscription_id")} IS NULL
    OR substr(${column("stripe_subscription_id")}, 1, ${prefix.length}) <> ${prefix}))`;
  const ended = sql`${nowMs} >= ${column("current_period_end")} * 1000`;
  return sql`(${column("subscription_status")} IN (${sql.join(premium, sql`, `)})
    AND (${column("current_period_end")} IS NULL OR NOT ${ended} OR ${renews}))`;
}

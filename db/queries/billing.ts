import { and, eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { billingEvents, testCheckoutSessions, type UserRow, users } from "../schema.ts";

/** The billing columns of a user row, as the webhook and test checkout write them. */
export type BillingPatch = Partial<
  Pick<
    UserRow,
    "subscriptionStatus" | "stripeCustomerId" | "stripeSubscriptionId" | "currentPeriodEnd" | "cancelAtPeriodEnd"
  >
>;

export type TestCheckoutRow = typeof testCheckoutSessions.$inferSelect;
export type TestCheckoutStatus = "open" | "paid" | "canceled";

export function findUserByStripeCustomer(db: Db, customerId: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(users.stripeCustomerId, customerId) });
}

export function findUserByStripeSubscription(db: Db, subscriptionId: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(users.stripeSubscriptionId, subscriptionId) });
}

export async function updateUserBilling(db: Db, userId: number, patch: BillingPatch): Promise<UserRow | undefined> {
  const rows = await db.update(users).set(patch).where(eq(users.id, userId)).returning();
  return rows[0];
}

export async function isBillingEventRecorded(db: Db, eventId: string): Promise<boolean> {
  const row = await db.query.billingEvents.findFirst({ where: eq(billingEvents.id, eventId) });
  return row !== undefined;
}

/**
 * Records a webhook event id and applies its change in one transaction, so a
 * failed update is retried by Stripe and a replayed event changes nothing.
 * Returns false when the event had already been recorded.
 */
export function recordBillingEvent(
  db: Db,
  event: { id: string; type: string },
  change: { userId: number; patch: BillingPatch } | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx.insert(billingEvents).values({ id: event.id, type: event.type })
      .onConflictDoNothing().returning({ id: billingEvents.id });
    if (inserted.length === 0) return false;
    if (change) await tx.update(users).set(change.patch).where(eq(users.id, change.userId));
    return true;
  });
}

export async function insertTestCheckout(db: Db, id: string, userId: number): Promise<void> {
  await db.insert(testCheckoutSessions).values({ id, userId, status: "open" });
}

/** A test checkout session, only when it belongs to `userId`. */
export function findTestCheckout(db: Db, id: string, userId: number): Promise<TestCheckoutRow | undefined> {
  return db.query.testCheckoutSessions.findFirst({
    where: and(eq(testCheckoutSessions.id, id), eq(testCheckoutSessions.userId, userId)),
  });
}

/**
 * Moves an open session to `status` and applies the user change in one
 * transaction; false when the session was no longer open (double click, replay).
 */
export function closeTestCheckout(
  db: Db,
  id: string,
  status: Exclude<TestCheckoutStatus, "open">,
  change: { userId: number; patch: BillingPatch } | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const closed = await tx.update(testCheckoutSessions).set({ status })
      .where(and(eq(testCheckoutSessions.id, id), eq(testCheckoutSessions.status, "open")))
      .returning({ id: testCheckoutSessions.id });
    if (closed.length === 0) return false;
    if (change) await tx.update(users).set(change.patch).where(eq(users.id, change.userId));
    return true;
  });
}

/**
 * Stores an ended period's status, only if the row still holds the period we
 * judged (a webhook that renewed it in the meantime wins).
 */
export async function expireSubscription(
  db: Db,
  user: Pick<UserRow, "id" | "subscriptionStatus" | "currentPeriodEnd">,
  status: string,
): Promise<void> {
  if (user.currentPeriodEnd === null) return;
  await db.update(users).set({ subscriptionStatus: status, cancelAtPeriodEnd: false }).where(and(
    eq(users.id, user.id),
    eq(users.subscriptionStatus, user.subscriptionStatus),
    eq(users.currentPeriodEnd, user.currentPeriodEnd),
  ));
}

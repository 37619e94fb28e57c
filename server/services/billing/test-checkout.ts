/** The local test checkout page's API (DESIGN §6): Pay activates Premium for 30 days, as a webhook would. */
import { z } from "zod";
import { isPremium } from "../../../contract/accounts.ts";
import { PREMIUM_PRICE_LABEL } from "../../../contract/plans.ts";
import type { Db } from "../../../db/client.ts";
import { closeTestCheckout, findTestCheckout, type TestCheckoutStatus } from "../../../db/queries/billing.ts";
import type { UserRow } from "../../../db/schema.ts";
import { DomainError } from "../../domain-error.ts";
import { parseInput } from "../validation.ts";
import { effectiveSubscriptionStatus, LOCAL_PERIOD_SECONDS, LOCAL_SUBSCRIPTION_PREFIX } from "./effective-status.ts";
import { LOCAL_SESSION_PREFIX } from "./local-test-billing.ts";
import { ALREADY_SUBSCRIBED } from "./subscriptions.ts";

export interface TestCheckoutView {
  id: string;
  status: TestCheckoutStatus;
  plan: "Premium";
  price: string;
  periodDays: number;
}

export interface TestCheckoutResult {
  /** Where the browser goes next, like Stripe's success and cancel URLs. */
  redirectTo: string;
}

const sessionIdSchema = z.string().regex(
  new RegExp(`^${LOCAL_SESSION_PREFIX}[a-z2-7]{1,64}$`),
  "sessionId is not a test checkout session",
);

async function openSessionOf(db: Db, user: UserRow, rawId: string) {
  const id = parseInput(sessionIdSchema, rawId);
  // Another user's session answers like a missing one.
  const session = await findTestCheckout(db, id, user.id);
  if (!session) throw new DomainError("not_found", `No test checkout session '${id}'`);
  return session;
}

export async function viewTestCheckout(db: Db, user: UserRow, rawId: string): Promise<TestCheckoutView> {
  const session = await openSessionOf(db, user, rawId);
  return {
    id: session.id,
    status: session.status as TestCheckoutStatus,
    plan: "Premium",
    price: PREMIUM_PRICE_LABEL,
    periodDays: LOCAL_PERIOD_SECONDS / 86_400,
  };
}

export async function payTestCheckout(
  db: Db,
  user: UserRow,
  rawId: string,
  nowMs: number,
): Promise<TestCheckoutResult> {
  const session = await openSessionOf(db, user, rawId);
  if (session.status !== "open") throw new DomainError("conflict", `This test checkout is already ${session.status}`);
  if (isPremium(effectiveSubscriptionStatus(user, nowMs))) throw new DomainError("conflict", ALREADY_SUBSCRIBED);
  const closed = await closeTestCheckout(db, session.id, "paid", {
    userId: user.id,
    patch: {
      subscriptionStatus: "active",
      stripeSubscriptionId: LOCAL_SUBSCRIPTION_PREFIX + session.id,
      currentPeriodEnd: Math.floor(nowMs / 1000) + LOCAL_PERIOD_SECONDS,
      cancelAtPeriodEnd: false,
    },
  });
  if (!closed) throw new DomainError("conflict", "This test checkout is no longer open");
  return { redirectTo: "/subscribe?checkout=success" };
}

export async function cancelTestCheckout(db: Db, user: UserRow, rawId: string): Promise<TestCheckoutResult> {
  const session = await openSessionOf(db, user, rawId);
  if (session.status === "open") await closeTestCheckout(db, session.id, "canceled", null);
  return { redirectTo: "/subscribe?checkout=cancelled" };
}

import type { BillingMode } from "../../../contract/ads.ts";
import type { Db } from "../../../db/client.ts";
import type { BillingPatch } from "../../../db/queries/billing.ts";
import type { UserRow } from "../../../db/schema.ts";

export type { BillingMode };

/** Which user a provider event is about; the first field that is set wins. */
export interface UserMatch {
  userId?: number;
  subscriptionId?: string;
  customerId?: string;
}

/** A change to a user's billing columns carried by a provider event. */
export interface BillingChange {
  match: UserMatch;
  patch: BillingPatch;
  /**
   * The subscription the change is about: it is skipped when the user has since
   * moved to another subscription that is still premium (a late event for an old one).
   */
  subscriptionId: string | null;
}

/** A webhook whose signature was verified. */
export interface VerifiedEvent {
  id: string;
  type: string;
  /** Null for event types we ignore; may call the provider (only done for new events). */
  toChange(): Promise<BillingChange | null>;
}

export interface CheckoutUrls {
  successUrl: string;
  cancelUrl: string;
}

/**
 * Where subscriptions are paid: Stripe, or local test billing when no Stripe
 * keys are set (DESIGN §6). main.ts picks one; routes only see this interface.
 */
export interface BillingProvider {
  readonly mode: BillingMode;
  /** PUBLIC_URL's origin when set: the base of checkout return URLs. */
  readonly publicUrl: string | null;
  /** Starts a checkout for `user`; returns the URL to send the browser to. */
  createCheckout(db: Db, user: UserRow, urls: CheckoutUrls): Promise<string>;
  /** Stops renewal at the end of the paid period; returns what to store. */
  cancelAtPeriodEnd(user: UserRow): Promise<BillingPatch>;
  /** A page where the customer manages their card and invoices. */
  portalUrl(user: UserRow, returnUrl: string): Promise<string>;
  /** Verifies a signed webhook (Stripe only); throws invalid_input (domain-error.ts) when the signature is bad. */
  verifyWebhook(rawBody: string, signature: string | undefined): Promise<VerifiedEvent>;
}

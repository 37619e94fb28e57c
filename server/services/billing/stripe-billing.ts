import Stripe from "stripe";
import type { Db } from "../../../db/client.ts";
import type { UserRow } from "../../../db/schema.ts";
import { DomainError } from "../../domain-error.ts";
import type { BillingProvider, CheckoutUrls, VerifiedEvent } from "./provider.ts";
import { changeFromEvent, patchFromSubscription } from "./stripe-events.ts";
import { log } from "../../log.ts";

export interface StripeBillingOptions {
  secretKey: string;
  webhookSecret: string;
  priceId: string;
  publicUrl?: string | null;
  /** Another API host (`http://127.0.0.1:12111`): the tests' fake Stripe, or stripe-mock. */
  apiBase?: string;
}

/** A failed call to Stripe: logged in full, refused as upstream_failed in our voice. */
function providerError(action: string, err: unknown): DomainError {
  log.error(`Stripe: ${action} failed`, { error: err instanceof Error ? err.message : err });
  return new DomainError("upstream_failed", `The payment provider could not ${action}; please try again`, {
    cause: err,
  });
}

/** Billing through Stripe Checkout, the Customer Portal and signed webhooks. */
export class StripeBilling implements BillingProvider {
  readonly mode = "stripe" as const;
  readonly publicUrl: string | null;
  readonly #stripe: Stripe;
  readonly #webhookSecret: string;
  readonly #priceId: string;

  constructor(options: StripeBillingOptions) {
    const base = options.apiBase ? new URL(options.apiBase) : null;
    this.#stripe = new Stripe(options.secretKey, {
      // Deno has fetch and WebCrypto; the SDK's Node http client is not used.
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(base
        ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === "https:" ? 443 : 80)),
          protocol: base.protocol === "https:" ? "https" : "http",
        }
        : {}),
    });
    this.#webhookSecret = options.webhookSecret;
    this.#priceId = options.priceId;
    this.publicUrl = options.publicUrl ? new URL(options.publicUrl).origin : null;
  }

  async createCheckout(_db: Db, user: UserRow, urls: CheckoutUrls): Promise<string> {
    const userId = String(user.id);
    let session: Stripe.Checkout.Session;
    try {
      session = await this.#stripe.checkout.sessions.create({
        mode: "subscription",
        line_items: [{ price: this.#priceId, quantity: 1 }],
        client_reference_id: userId,
        // A returning customer keeps their Stripe customer (cards, invoices).
        ...(user.stripeCustomerId
          ? { customer: user.stripeCustomerId }
          : user.email
          ? { customer_email: user.email }
          : {}),
        metadata: { userId },
        subscription_data: { metadata: { userId } },
        success_url: urls.successUrl,
        cancel_url: urls.cancelUrl,
      });
    } catch (err) {
      throw providerError("start the checkout", err);
    }
    if (!session.url) throw providerError("start the checkout", new Error(`session ${session.id} has no url`));
    return session.url;
  }

  async cancelAtPeriodEnd(user: UserRow) {
    if (!user.stripeSubscriptionId) throw new DomainError("conflict", "You have no active subscription to cancel");
    try {
      const sub = await this.#stripe.subscriptions.update(user.stripeSubscriptionId, { cancel_at_period_end: true });
      return patchFromSubscription(sub);
    } catch (err) {
      throw providerError("cancel the subscription", err);
    }
  }

  async portalUrl(user: UserRow, returnUrl: string): Promise<string> {
    if (!user.stripeCustomerId) throw new DomainError("conflict", "There is no billing account yet; subscribe first");
    try {
      const session = await this.#stripe.billingPortal.sessions.create({
        customer: user.stripeCustomerId,
        return_url: returnUrl,
      });
      return session.url;
    } catch (err) {
      throw providerError("open the billing portal", err);
    }
  }

  async verifyWebhook(rawBody: string, signature: string | undefined): Promise<VerifiedEvent> {
    if (!signature) throw new DomainError("invalid_input", "The Stripe-Signature header is missing");
    let event: Stripe.Event;
    try {
      // Only the async helper works under Deno (WebCrypto has no sync HMAC).
      event = await this.#stripe.webhooks.constructEventAsync(rawBody, signature, this.#webhookSecret);
    } catch {
      throw new DomainError("invalid_input", "The webhook signature is invalid");
    }
    return {
      id: event.id,
      type: event.type,
      toChange: () => changeFromEvent(event, (id) => this.#stripe.subscriptions.retrieve(id)),
    };
  }
}

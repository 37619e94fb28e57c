import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { paths } from "../../../contract/routes.ts";
import type { Db } from "../../../db/client.ts";
import { insertTestCheckout } from "../../../db/queries/billing.ts";
import type { UserRow } from "../../../db/schema.ts";
import { DomainError } from "../../domain-error.ts";
import type { BillingProvider, VerifiedEvent } from "./provider.ts";

export const LOCAL_SESSION_PREFIX = "cs_local_";

/**
 * Local test billing (DESIGN §6): without Stripe keys, checkout is a page of
 * ours with Pay and Cancel (see test-checkout.ts), so the whole Premium path
 * works with no Stripe account. main.ts never picks it when keys are set.
 */
export class LocalTestBilling implements BillingProvider {
  readonly mode = "test" as const;
  readonly publicUrl: string | null;

  constructor(options: { publicUrl?: string | null } = {}) {
    this.publicUrl = options.publicUrl ? new URL(options.publicUrl).origin : null;
  }

  async createCheckout(db: Db, user: UserRow): Promise<string> {
    const id = LOCAL_SESSION_PREFIX + encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(15)));
    await insertTestCheckout(db, id, user.id);
    return paths.testCheckout(id);
  }

  cancelAtPeriodEnd(user: UserRow) {
    if (!user.stripeSubscriptionId) throw new DomainError("conflict", "You have no active subscription to cancel");
    // Nothing to tell a provider: the subscription simply does not renew.
    return Promise.resolve({ cancelAtPeriodEnd: true });
  }

  portalUrl(): Promise<string> {
    throw new DomainError("not_found", "The billing portal needs Stripe; this server uses local test billing");
  }

  verifyWebhook(): Promise<VerifiedEvent> {
    throw new DomainError("not_found", "Stripe webhooks are not configured; this server uses local test billing");
  }
}

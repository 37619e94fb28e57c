import type { Env } from "../../env.ts";
import { LocalTestBilling } from "./local-test-billing.ts";
import type { BillingProvider } from "./provider.ts";
import { StripeBilling } from "./stripe-billing.ts";
import { log } from "../../log.ts";

/**
 * Stripe when its keys are set, else local test billing. env.ts refuses a
 * partial Stripe configuration, so test billing can never run beside real keys.
 */
export function createBilling(
  env: Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_PRICE_ID" | "PUBLIC_URL">,
): BillingProvider {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_PRICE_ID: priceId } = env;
  if (secretKey && webhookSecret && priceId) {
    return new StripeBilling({ secretKey, webhookSecret, priceId, publicUrl: env.PUBLIC_URL });
  }
  if (secretKey || webhookSecret || priceId) {
    throw new Error("STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID must be set together");
  }
  log.info("Billing: local test billing (no Stripe keys); checkout is a test page with Pay and Cancel");
  return new LocalTestBilling({ publicUrl: env.PUBLIC_URL });
}

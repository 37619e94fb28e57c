import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { currentUser, requireUser } from "../middleware/session.ts";
import { subscriptionStatusOf } from "../services/billing/status-messages.ts";
import { cancelSubscription, handleWebhook, startSubscription } from "../services/billing/subscriptions.ts";
import { readJson } from "./request.ts";

/** Stripe's events are a few KB; anything far larger is not from Stripe (enforced in app.ts). */
export const WEBHOOK_MAX_BYTES = 512 * 1024;

/** Subscriptions (spec §7, DESIGN §6) with whichever provider main.ts chose. */
export const billingRoutes = new Hono<AppEnv>()
  .post("/create-subscription", requireUser, async (c) => {
    await readJson(c); // the spec sends `{}`; malformed JSON is still a 400
    const { db, billing } = c.var.deps;
    return c.json(await startSubscription(db, billing, currentUser(c), new URL(c.req.url).origin));
  })
  .get("/subscription/status", requireUser, (c) => c.json(subscriptionStatusOf(currentUser(c), Date.now())))
  .post("/subscription/cancel", requireUser, async (c) => {
    const { db, billing } = c.var.deps;
    return c.json(await cancelSubscription(db, billing, currentUser(c)));
  })
  .post("/billing/portal", requireUser, async (c) => {
    const { billing } = c.var.deps;
    const returnUrl = `${billing.publicUrl ?? new URL(c.req.url).origin}/`;
    return c.json({ url: await billing.portalUrl(currentUser(c), returnUrl) });
  })
  .post("/stripe/webhook", async (c) => {
    const { db, billing } = c.var.deps;
    // The signature covers the exact bytes: read the raw text, never re-serialised JSON.
    const raw = await c.req.text();
    return c.json(await handleWebhook(db, billing, raw, c.req.header("stripe-signature")));
  });

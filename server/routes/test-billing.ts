import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { currentUser, requireUser } from "../middleware/session.ts";
import { cancelTestCheckout, payTestCheckout, viewTestCheckout } from "../services/billing/test-checkout.ts";

/**
 * Local test billing's checkout (DESIGN §6). app.ts mounts these only when
 * main.ts chose local test billing, so with Stripe keys they answer 404.
 */
export const testBillingRoutes = new Hono<AppEnv>()
  .use("/test-billing/*", requireUser)
  .get("/test-billing/:sessionId", async (c) => {
    return c.json(await viewTestCheckout(c.var.deps.db, currentUser(c), c.req.param("sessionId")));
  })
  .post("/test-billing/:sessionId/pay", async (c) => {
    return c.json(await payTestCheckout(c.var.deps.db, currentUser(c), c.req.param("sessionId"), Date.now()));
  })
  .post("/test-billing/:sessionId/cancel", async (c) => {
    return c.json(await cancelTestCheckout(c.var.deps.db, currentUser(c), c.req.param("sessionId")));
  });

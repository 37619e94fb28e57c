import { Hono } from "hono";
import type { SiteConfig } from "../../contract/ads.ts";
import type { AppEnv } from "../app-env.ts";

/** GET /api/config: what the web app needs to know about this deployment (billing mode, ads). */
export const siteConfigRoutes = new Hono<AppEnv>()
  .get("/config", (c) => {
    const { billing, adsense } = c.var.deps;
    const config: SiteConfig = {
      billingMode: billing.mode,
      adsenseClient: adsense?.client ?? null,
      adSlots: adsense?.slots ?? {},
    };
    return c.json(config, 200, { "Cache-Control": "no-cache" });
  });

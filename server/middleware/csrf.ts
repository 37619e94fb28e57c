import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.ts";
import { ApiError } from "../http-error.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(value: string | undefined): string | null {
  if (!value) return null;
  try {
    return new URL(value).origin;
  } catch {
    return "invalid";
  }
}

/**
 * Refuses state-changing requests sent by another site. Browsers always send
 * `Origin` on cross-site POSTs; requests with neither header (curl, Stripe) pass.
 */
export const refuseForeignOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!SAFE.has(c.req.method)) {
    const origin = originOf(c.req.header("origin")) ?? originOf(c.req.header("referer"));
    if (origin !== null) {
      const own = new URL(c.req.url).origin;
      if (origin !== own && !c.var.deps.trustedOrigins.includes(origin)) {
        throw new ApiError(403, "Cross-site request refused");
      }
    }
  }
  await next();
};

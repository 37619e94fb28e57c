import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { ApiError } from "../http-error.ts";
import { SESSION_COOKIE } from "../services/sessions.ts";
import { type TokenBucketOptions, TokenBuckets } from "./token-buckets.ts";

/** The routes the compressor page polls; everything else (uploads, downloads, thumbnails) is not limited here. */
export const POLLED_PATHS = new Set([
  "/api/jobs",
  "/api/batches",
  "/api/queue/status",
  "/api/usage",
  "/api/user",
  "/api/subscription/status",
]);

export type PollBudgetOptions = TokenBucketOptions;

/** The page polls four routes every second or two: room for several tabs, not for a flood. */
export const DEFAULT_POLL_BUDGET: PollBudgetOptions = { burst: 40, perSecond: 10 };

/**
 * A token bucket per session for the polled routes, checked before the
 * session is looked up, so a flood from one session costs a map lookup per
 * request instead of database reads and slows nobody else (429 + Retry-After).
 */
export function pollBudget(options: PollBudgetOptions = DEFAULT_POLL_BUDGET): MiddlewareHandler {
  const buckets = new TokenBuckets(options);
  return async (c, next) => {
    const token = c.req.method === "GET" && POLLED_PATHS.has(c.req.path) ? getCookie(c, SESSION_COOKIE) : undefined;
    if (token === undefined) return next();
    const wait = buckets.take(token);
    if (wait > 0) {
      throw new ApiError(429, "Too many requests from this session; slow down", { "Retry-After": String(wait) });
    }
    await next();
  };
}

import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { ApiError } from "../http-error.ts";
import { SESSION_COOKIE } from "../services/sessions.ts";

/** The routes the compressor page polls; everything else (uploads, downloads, thumbnails) is not limited here. */
export const POLLED_PATHS = new Set([
  "/api/jobs",
  "/api/batches",
  "/api/queue/status",
  "/api/usage",
  "/api/user",
  "/api/subscription/status",
]);

export interface PollBudgetOptions {
  /** Requests a session may make at once before it must wait. */
  burst: number;
  /** Requests per second it regains. */
  perSecond: number;
  now?: () => number;
}

/** The page polls four routes every second or two: room for several tabs, not for a flood. */
export const DEFAULT_POLL_BUDGET: PollBudgetOptions = { burst: 40, perSecond: 10 };

/**
 * A token bucket per session for the polled routes, checked before the
 * session is looked up, so a flood from one session costs a map lookup per
 * request instead of database reads and slows nobody else (429 + Retry-After).
 */
export function pollBudget(options: PollBudgetOptions = DEFAULT_POLL_BUDGET): MiddlewareHandler {
  const now = options.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return async (c, next) => {
    const token = c.req.method === "GET" && POLLED_PATHS.has(c.req.path) ? getCookie(c, SESSION_COOKIE) : undefined;
    if (token === undefined) return next();
    const t = now();
    const bucket = buckets.get(token) ?? { tokens: options.burst, at: t };
    bucket.tokens = Math.min(options.burst, bucket.tokens + ((t - bucket.at) / 1000) * options.perSecond);
    bucket.at = t;
    buckets.delete(token); // re-inserted last: the map's first keys are the least recently seen
    buckets.set(token, bucket);
    if (buckets.size > 100_000) buckets.delete(buckets.keys().next().value!);
    if (bucket.tokens < 1) {
      const wait = Math.ceil((1 - bucket.tokens) / options.perSecond);
      throw new ApiError(429, "Too many requests from this session; slow down", { "Retry-After": String(wait) });
    }
    bucket.tokens -= 1;
    await next();
  };
}

import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.ts";
import { ApiError } from "../http-error.ts";
import { apiKeyHash, authenticateApiKey, bearerKey } from "../services/api-keys.ts";
import { type TokenBucketOptions, TokenBuckets } from "./token-buckets.ts";

/**
 * `/api/v1` authentication (ADR 025): only `Authorization: Bearer KEY`, never the session cookie
 * (so no CSRF check is needed: a browser never sends the header on its own). In this order:
 * a missing or malformed header is 401 at once; then the key's rate limit, a token bucket per
 * key hash in memory, before anything a request costs (database reads, the body), so a flood
 * with one key is refused by a map lookup; then the key is looked up (401 unknown or revoked)
 * and its account becomes `c.var.user`, the key `c.var.apiKey`.
 */
export function apiKeyAuth(rateLimit: TokenBucketOptions): MiddlewareHandler<AppEnv> {
  const buckets = new TokenBuckets(rateLimit);
  return async (c, next) => {
    const hash = apiKeyHash(bearerKey(c.req.header("Authorization")));
    const wait = buckets.take(hash);
    if (wait > 0) {
      throw new ApiError(
        429,
        `Too many requests with this API key: at most ${rateLimit.perSecond} a second after a burst of ${rateLimit.burst}`,
        { "Retry-After": String(wait) },
      );
    }
    const { user, key } = await authenticateApiKey(c.var.deps.db, hash);
    c.set("user", user);
    c.set("apiKey", key);
    await next();
  };
}

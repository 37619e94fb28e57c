import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.ts";
import { ApiError } from "../http-error.ts";
import { DomainError } from "../domain-error.ts";
import { clientIp } from "../routes/request.ts";
import { apiKeyHash, authenticateApiKey, bearerKey } from "../services/api-keys.ts";
import { KEY_LOOKUP_LIMITS, KeyLookupBudget, type KeyLookupLimits } from "./key-lookup-budget.ts";
import { type TokenBucketOptions, TokenBuckets } from "./token-buckets.ts";

/**
 * `/api/v1` authentication (ADR 025, 027): only `Authorization: Bearer KEY`, never the session cookie
 * (so no CSRF check is needed: a browser never sends the header on its own). In this order, each
 * step in memory until the lookup: a missing or malformed header is 401 at once; a key whose lookup
 * failed before gets that 401 again; a key not yet seen to authenticate here needs a token of the
 * failed-lookup budgets (its address's, 429; the instance's, 503), so random keys cost no query;
 * then the key's own rate limit, a token bucket per key hash; then the key is looked up (401
 * unknown or revoked) and its account becomes `c.var.user`, the key `c.var.apiKey`.
 */
export function apiKeyAuth(
  rateLimit: TokenBucketOptions,
  lookupLimits: KeyLookupLimits = KEY_LOOKUP_LIMITS,
): MiddlewareHandler<AppEnv> {
  const buckets = new TokenBuckets(rateLimit);
  const budget = new KeyLookupBudget(lookupLimits);
  return async (c, next) => {
    const hash = apiKeyHash(bearerKey(c.req.header("Authorization")));
    const lookup = await budget.begin(hash, clientIp(c));
    const wait = buckets.take(hash);
    if (wait > 0) {
      lookup.abandoned();
      throw new ApiError(
        429,
        `Too many requests with this API key: at most ${rateLimit.perSecond} a second after a burst of ${rateLimit.burst}`,
        { "Retry-After": String(wait) },
      );
    }
    let found;
    try {
      found = await authenticateApiKey(c.var.deps.db, hash);
    } catch (err) {
      if (err instanceof DomainError && err.code === "unauthenticated") lookup.failed(err);
      else lookup.abandoned();
      throw err;
    }
    lookup.succeeded();
    c.set("user", found.user);
    c.set("apiKey", found.key);
    await next();
  };
}

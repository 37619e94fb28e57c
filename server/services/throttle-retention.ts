/**
 * Keeps the shared throttle tables bounded (ADR 019): an event counts for nothing once it is
 * older than the longest window it could count in, nor a known address past `knownForMs`.
 * Under a spray of keys the events table holds at most what arrived in that window plus one
 * sweep interval.
 */
import type { Db } from "../../db/client.ts";
import { pruneThrottleRows } from "../../db/queries/throttle.ts";
import { DEFAULT_THROTTLE, type ThrottleLimits } from "./login-throttle.ts";
import { REGISTRATION_WINDOW_MS } from "./registration-limit.ts";

export function pruneThrottles(db: Db, now = Date.now(), limits: ThrottleLimits = DEFAULT_THROTTLE): Promise<number> {
  const keptMs = Math.max(limits.windowMs, REGISTRATION_WINDOW_MS);
  return pruneThrottleRows(db, now - keptMs, now - limits.knownForMs);
}

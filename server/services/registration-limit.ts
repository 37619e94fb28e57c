/**
 * Sign-ups per address in a sliding window (REGISTRATIONS_PER_HOUR, ADR 010), counted in the
 * database (ADR 019): shared by every instance on it, kept across restarts, exact under concurrency.
 */
import type { Db } from "../../db/client.ts";
import { nthNewestEvent, recordEventBelow } from "../../db/queries/throttle.ts";

export const REGISTRATION_WINDOW_MS = 3_600_000;

export class RegistrationLimit {
  constructor(
    private readonly db: Db,
    private readonly limit: number,
    private readonly windowMs = REGISTRATION_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a sign-up from `ip` and returns 0, or, at the limit, the seconds until one is allowed (nothing counted). */
  async take(ip: string): Promise<number> {
    const now = this.now();
    const key = `r:${ip}`;
    const since = now - this.windowMs;
    if (await recordEventBelow(this.db, key, now, since, this.limit)) return 0;
    // The window reopens when the oldest sign-up that keeps it at the limit ages out.
    const nth = await nthNewestEvent(this.db, key, since, this.limit);
    // Another instance may have counted a sign-up after `now` (or by a clock ahead of ours): never past the window.
    const ms = Math.min(this.windowMs, (nth ?? now) + this.windowMs - this.now());
    return Math.max(1, Math.ceil(ms / 1000));
  }
}

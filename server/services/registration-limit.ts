/**
 * Sign-ups per address in a sliding window (REGISTRATIONS_PER_HOUR, ADR 010), counted in the
 * database (ADR 019): shared by every instance on it, kept across restarts, exact under concurrency.
 */
import type { Db } from "../../db/client.ts";
import { nthNewestEvent, recordEventBelow } from "../../db/queries/throttle.ts";
import { windowReopensInMs } from "./sliding-window.ts";

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
    // Read the clock again: another instance may have counted a sign-up after `now`.
    const nth = await nthNewestEvent(this.db, key, since, this.limit);
    return Math.ceil(windowReopensInMs(nth ?? now, this.windowMs, this.now()) / 1000);
  }
}

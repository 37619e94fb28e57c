/** The arithmetic both sliding-window limits share (sign-in failures, ADR 010; sign-ups per address). */

/**
 * Milliseconds until a window at its limit reopens: when the oldest event that keeps it there (`nthNewest`)
 * ages out. At least 1, never more than the window: another instance may have counted an event by a clock ahead
 * of ours.
 */
export function windowReopensInMs(nthNewest: number, windowMs: number, now: number): number {
  return Math.max(1, Math.min(windowMs, nthNewest + windowMs - now));
}

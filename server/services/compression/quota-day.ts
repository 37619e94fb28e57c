/** The UTC day a compression counts against (DESIGN §3). */
export const utcDay = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 10);

/** The next UTC midnight, when the daily quota resets. */
export function nextUtcMidnight(nowMs: number): Date {
  const d = new Date(nowMs);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
}

/**
 * Counts failed logins per username and per IP in a sliding window. In memory:
 * one process serves the app (DESIGN §1); a restart forgets, which only loosens it.
 */
export interface ThrottleLimits {
  windowMs: number;
  perUsername: number;
  perIp: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { windowMs: 15 * 60_000, perUsername: 5, perIp: 20 };

export class LoginThrottle {
  #failures = new Map<string, number[]>();

  constructor(private limits: ThrottleLimits = DEFAULT_THROTTLE, private now = () => Date.now()) {}

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(username: string, ip: string): number {
    const waits = [
      this.#wait(`u:${username.toLowerCase()}`, this.limits.perUsername),
      this.#wait(`ip:${ip}`, this.limits.perIp),
    ];
    return Math.max(...waits);
  }

  recordFailure(username: string, ip: string): void {
    for (const key of [`u:${username.toLowerCase()}`, `ip:${ip}`]) {
      const list = this.#recent(key);
      list.push(this.now());
      this.#failures.set(key, list);
    }
  }

  recordSuccess(username: string): void {
    this.#failures.delete(`u:${username.toLowerCase()}`);
  }

  #recent(key: string): number[] {
    const cutoff = this.now() - this.limits.windowMs;
    const list = (this.#failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) this.#failures.delete(key);
    return list;
  }

  #wait(key: string, limit: number): number {
    const list = this.#recent(key);
    if (list.length < limit) return 0;
    // The window reopens when the oldest failure that keeps us at the limit ages out.
    const oldest = list[list.length - limit]!;
    return Math.max(1, Math.ceil((oldest + this.limits.windowMs - this.now()) / 1000));
  }
}

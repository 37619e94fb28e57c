/**
 * Slows password guessing without letting anyone lock a user out (ADR 010).
 * Failures are counted three ways, each in a sliding window:
 * - per username *and* address: after a few, that pair waits, doubling each time;
 * - per address across usernames: one address cannot spray many accounts;
 * - per username across addresses: a distributed guess at one account is capped,
 *   but an address the user has signed in from recently is exempt, so failures
 *   sent from elsewhere never lock the owner out.
 * In memory, per process; a restart forgets, which only loosens it.
 */
import { forgetOldest } from "./sliding-window.ts";

export interface ThrottleLimits {
  windowMs: number;
  /** Failures of one username from one address before it must wait. */
  perPair: number;
  /** The first wait; each further failure doubles it, up to `windowMs`. */
  firstWaitMs: number;
  perIp: number;
  perUsername: number;
  /** How long a successful sign-in makes its address known for that user. */
  knownForMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = {
  windowMs: 15 * 60_000,
  perPair: 5,
  firstWaitMs: 30_000,
  perIp: 30,
  perUsername: 100,
  knownForMs: 30 * 24 * 60 * 60_000,
};

/** Beyond this many tracked keys, the oldest are forgotten (bounded memory under a spray). */
const MAX_KEYS = 100_000;

export class LoginThrottle {
  #failures = new Map<string, number[]>();
  #known = new Map<string, number>();

  constructor(private limits: ThrottleLimits = DEFAULT_THROTTLE, private now = () => Date.now()) {}

  /** Seconds until this username may be tried from this address, or 0 when it may now. */
  retryAfter(username: string, ip: string): number {
    const user = username.toLowerCase();
    const waits = [this.#pairWait(user, ip), this.#windowWait(`ip:${ip}`, this.limits.perIp)];
    if (!this.#isKnown(user, ip)) waits.push(this.#windowWait(`u:${user}`, this.limits.perUsername));
    return Math.max(...waits.map((ms) => Math.ceil(ms / 1000)));
  }

  recordFailure(username: string, ip: string): void {
    const user = username.toLowerCase();
    for (const key of [`p:${user}\n${ip}`, `ip:${ip}`, `u:${user}`]) {
      const list = this.#recent(key);
      list.push(this.now());
      this.#failures.set(key, list);
    }
    forgetOldest(this.#failures, MAX_KEYS);
  }

  recordSuccess(username: string, ip: string): void {
    const user = username.toLowerCase();
    this.#failures.delete(`p:${user}\n${ip}`);
    this.#known.set(`${user}\n${ip}`, this.now());
    forgetOldest(this.#known, MAX_KEYS);
  }

  #isKnown(user: string, ip: string): boolean {
    const at = this.#known.get(`${user}\n${ip}`);
    return at !== undefined && this.now() - at < this.limits.knownForMs;
  }

  #pairWait(user: string, ip: string): number {
    const list = this.#recent(`p:${user}\n${ip}`);
    const over = list.length - this.limits.perPair;
    if (over < 0) return 0;
    const wait = Math.min(this.limits.windowMs, this.limits.firstWaitMs * 2 ** over);
    return Math.max(0, list[list.length - 1]! + wait - this.now());
  }

  #windowWait(key: string, limit: number): number {
    const list = this.#recent(key);
    if (list.length < limit) return 0;
    // The window reopens when the oldest failure that keeps us at the limit ages out.
    return Math.max(1, list[list.length - limit]! + this.limits.windowMs - this.now());
  }

  #recent(key: string): number[] {
    const cutoff = this.now() - this.limits.windowMs;
    const list = (this.#failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) this.#failures.delete(key);
    return list;
  }
}

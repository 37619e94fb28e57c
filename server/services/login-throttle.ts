/**
 * Slows password guessing without letting anyone lock a user out (ADR 010).
 * Failures are counted three ways, each in a sliding window:
 * - per username *and* address: after a few, that pair waits, doubling each time;
 * - per address across usernames: one address cannot spray many accounts;
 * - per username across addresses: a distributed guess at one account is capped,
 *   but an address the user has signed in from recently is exempt, so failures
 *   sent from elsewhere never lock the owner out.
 * Counted in the database (ADR 019), so every instance on it shares the counts and a restart keeps them.
 */
import type { Db } from "../../db/client.ts";
import { windowReopensInMs } from "./sliding-window.ts";
import {
  claimSignInAttempt,
  recordEvents,
  recordSignInSuccess,
  type SignInGate,
  type SignInKeys,
  signInState,
} from "../../db/queries/throttle.ts";

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

/** An attempt `begin` let through, already counted as a failure; `retryAfter` > 0 when it was refused. */
export interface SignInAttempt {
  retryAfter: number;
  ids: number[];
}

export class LoginThrottle {
  constructor(
    private readonly db: Db,
    readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until this username may be tried from this address, or 0 when it may now. */
  async retryAfter(username: string, ip: string): Promise<number> {
    const gate = this.#gate();
    const s = await signInState(this.db, keysOf(username, ip), gate);
    const waits = [this.#pairWait(s.pairCount, s.pairLast, gate.now), this.#windowWait(s.ipNth, gate.now)];
    const known = s.knownAt !== null && s.knownAt > gate.knownSince;
    if (!known) waits.push(this.#windowWait(s.userNth, gate.now));
    return Math.max(...waits.map((ms) => Math.ceil(ms / 1000)));
  }

  /**
   * Admits an attempt and counts it as a failure in the same statement, unless it must wait.
   * Counting before the password is checked closes the gap a check-then-record would leave
   * (a slow hash during which concurrent guesses all pass the check); `recordSuccess` takes
   * the count back.
   */
  async begin(username: string, ip: string): Promise<SignInAttempt> {
    const ids = await claimSignInAttempt(this.db, keysOf(username, ip), this.#gate());
    if (ids.length > 0) return { retryAfter: 0, ids };
    // Refused: the wait for the header. An event that aged out between the two reads gives 0; ask again in 1 s.
    return { retryAfter: Math.max(1, await this.retryAfter(username, ip)), ids: [] };
  }

  async recordFailure(username: string, ip: string): Promise<void> {
    const keys = keysOf(username, ip);
    await recordEvents(this.db, [keys.pair, keys.ip, keys.user], this.now());
  }

  /** Forgets the pair's failures (and the attempt's own count) and makes the address known for this user. */
  async recordSuccess(username: string, ip: string, attempt?: SignInAttempt): Promise<void> {
    await recordSignInSuccess(this.db, keysOf(username, ip), attempt?.ids ?? [], this.now());
  }

  #gate(): SignInGate {
    const now = this.now();
    const l = this.limits;
    return {
      now,
      since: now - l.windowMs,
      knownSince: now - l.knownForMs,
      perPair: l.perPair,
      firstWaitMs: l.firstWaitMs,
      maxWaitMs: l.windowMs,
      perIp: l.perIp,
      perUsername: l.perUsername,
    };
  }

  #pairWait(count: number, last: number | null, now: number): number {
    const over = count - this.limits.perPair;
    if (over < 0 || last === null) return 0;
    const wait = Math.min(this.limits.windowMs, this.limits.firstWaitMs * 2 ** over);
    return Math.max(0, Math.min(wait, last + wait - now)); // another instance's clock may run ahead of ours
  }

  #windowWait(nthNewest: number | null, now: number): number {
    return nthNewest === null ? 0 : windowReopensInMs(nthNewest, this.limits.windowMs, now);
  }
}

/** Usernames are case-insensitive; the prefixes keep the kinds of key apart in the one table. */
function keysOf(username: string, ip: string): SignInKeys {
  const user = username.toLowerCase();
  return { pair: `p:${user}\n${ip}`, ip: `ip:${ip}`, user: `u:${user}`, known: `k:${user}\n${ip}` };
}

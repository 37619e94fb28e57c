/**
 * What an unknown API key may cost (issue 29, ADR 028). A key this instance has not seen authenticate is
 * looked up in the database only within a budget of such lookups per client network and one for the whole
 * instance, token buckets in memory whose tokens a successful lookup gives back: so only failed lookups
 * spend them. A key whose lookup failed (unknown or revoked) is answered from memory after that. A flood
 * of random well-formed keys then costs a map lookup each, not a query, however many keys or addresses
 * it uses; and keys that work are not held up by it: a key seen to authenticate here is looked up as
 * before (a revocation holds at once: there is no positive cache), outside both budgets.
 */
import { ApiError } from "../http-error.ts";
import { type TokenBucketOptions, TokenBuckets } from "./token-buckets.ts";

export interface KeyLookupLimits {
  /** Lookups of keys not known good, per client network (an IPv4 address, an IPv6 /64). */
  perAddress: TokenBucketOptions;
  /** The same for the whole instance: what a flood spread over many addresses gets. */
  global: TokenBucketOptions;
  /** How many failed keys' answers are remembered (the least recently seen dropped first). */
  failedKeys: number;
  /** How many keys seen to authenticate are remembered, exempt from the budgets. */
  goodKeys: number;
}

/**
 * The numbers (ADR 028). Per address 10, then one every 10 s: someone with a mistyped key fails once
 * and fixes it, the CLI stops at the first 401, and a script retrying one wrong key is answered from
 * memory without spending any; ten different wrong keys from one address is already a search. Per
 * instance 100, then 20 a second: an indexed read each, about 1% of the 2,000 a second one flooding
 * client made the server do before (bench/key-flood.ts). 10,000 hashes of each kind: about 2 MB.
 */
export const KEY_LOOKUP_LIMITS: KeyLookupLimits = {
  perAddress: { burst: 10, perSecond: 0.1 },
  global: { burst: 100, perSecond: 20 },
  failedKeys: 10_000,
  goodKeys: 10_000,
};

/** What the auth middleware reports once the database answered (or did not). */
export interface KeyLookup {
  /** The key authenticated: it is known good from now on, and its tokens are given back. */
  succeeded(): void;
  /** The key was refused (401): that answer is remembered, and its tokens stay spent. */
  failed(refusal: Error): void;
  /** No lookup happened or it broke (another refusal, a database error): the tokens are given back. */
  abandoned(): void;
}

const NOTHING_TO_REPORT: KeyLookup = { succeeded() {}, failed() {}, abandoned() {} };

/** A map that keeps its `max` most recently used entries. */
class Recent<V> {
  #entries = new Map<string, V>();
  constructor(readonly max: number) {}
  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) this.set(key, value);
    return value;
  }
  set(key: string, value: V): void {
    this.#entries.delete(key); // re-inserted last: the first keys are the least recently used
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }
  delete(key: string): void {
    this.#entries.delete(key);
  }
}

/**
 * The unit one client holds addresses in: an IPv4 address, or the /64 of an IPv6 one (a single host
 * commonly has a whole /64, so counting its addresses one by one would give it 2^64 budgets).
 */
export function clientNetwork(address: string): string {
  const ip = address.replace(/%.*$/, ""); // a zone id names the interface, not the peer
  if (!ip.includes(":")) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const [head = "", tail] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined
    ? left
    : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16)).join(":")}::/64`;
}

const every = (perSecond: number) => {
  const s = 1 / perSecond;
  return s === 1 ? "a second" : `${Number(s.toFixed(1))} s`;
};

export class KeyLookupBudget {
  #perAddress: TokenBuckets;
  #global: TokenBuckets;
  #failed: Recent<Error>;
  #good: Recent<true>;
  /** Keys whose first lookup here is under way: parallel requests with one new key share its token. */
  #pending = new Map<string, Promise<void>>();

  constructor(readonly limits: KeyLookupLimits = KEY_LOOKUP_LIMITS) {
    this.#perAddress = new TokenBuckets(limits.perAddress);
    this.#global = new TokenBuckets(limits.global, 1);
    this.#failed = new Recent(limits.failedKeys);
    this.#good = new Recent(limits.goodKeys);
  }

  /**
   * Before `hash` is looked up for a request from `address`: throws the remembered 401 of a key that
   * failed, or 429 (this address) / 503 (this instance) past a budget. The tokens are taken here, in one
   * synchronous step, so parallel requests cannot pass a budget together; report the outcome on the
   * result, always. Requests with a key whose first lookup is under way wait for its outcome instead
   * of taking tokens of their own: a script starting 20 requests at once with a new key spends one.
   */
  async begin(hash: string, address: string): Promise<KeyLookup> {
    const pending = this.#pending.get(hash);
    if (pending) await pending;
    const failed = this.#failed.get(hash);
    if (failed) throw failed;
    if (this.#good.get(hash)) return this.#known(hash);
    const network = clientNetwork(address);
    const { perAddress, global } = this.limits;
    const wait = this.#perAddress.take(network);
    if (wait > 0) {
      throw new ApiError(
        429,
        `Too many requests with unknown or revoked API keys from your address: at most ${perAddress.burst}, ` +
          `then one every ${every(perAddress.perSecond)}`,
        { "Retry-After": String(wait) },
      );
    }
    const busy = this.#global.take("");
    if (busy > 0) {
      this.#perAddress.give(network);
      throw new ApiError(
        503,
        `The server is busy refusing unknown API keys (it checks at most ${global.perSecond} a second); ` +
          "please try again in a moment",
        { "Retry-After": String(busy) },
      );
    }
    let settle = () => {};
    const first = new Promise<void>((resolve) => settle = resolve);
    this.#pending.set(hash, first);
    const end = (giveBack: boolean) => {
      if (giveBack) {
        this.#perAddress.give(network);
        this.#global.give("");
      }
      if (this.#pending.get(hash) === first) this.#pending.delete(hash);
      settle();
    };
    return {
      succeeded: () => {
        this.#good.set(hash, true);
        end(true);
      },
      failed: (refusal) => {
        this.#failed.set(hash, refusal);
        end(false);
      },
      abandoned: () => end(true),
    };
  }

  /** A key that authenticated here before: looked up as ever, outside the budgets. */
  #known(hash: string): KeyLookup {
    return {
      ...NOTHING_TO_REPORT,
      failed: (refusal) => {
        this.#good.delete(hash);
        this.#failed.set(hash, refusal);
      },
    };
  }
}

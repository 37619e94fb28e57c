/**
 * In-memory token buckets by key, for limits a flood must not get past cheaply (the poll budget,
 * the API's per-key rate limit, failed key lookups). Per process: several instances each keep their own (ADR 010,
 * 025). Checking and taking a token is synchronous, so parallel requests on one instance cannot
 * pass the limit together. At most `maxKeys` buckets are kept, the least recently seen dropped.
 */
export interface TokenBucketOptions {
  /** Requests a key may make at once before it must wait. */
  burst: number;
  /** Requests per second it regains. */
  perSecond: number;
  now?: () => number;
}

export class TokenBuckets {
  #buckets = new Map<string, { tokens: number; at: number }>();
  #now: () => number;

  constructor(readonly options: TokenBucketOptions, readonly maxKeys = 100_000) {
    this.#now = options.now ?? Date.now;
  }

  /** Takes a token for `key`: 0 when there was one, else the whole seconds until there is. */
  take(key: string): number {
    const { burst, perSecond } = this.options;
    const t = this.#now();
    const bucket = this.#buckets.get(key) ?? { tokens: burst, at: t };
    bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * perSecond);
    bucket.at = t;
    this.#buckets.delete(key); // re-inserted last: the map's first keys are the least recently seen
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > this.maxKeys) this.#buckets.delete(this.#buckets.keys().next().value!);
    if (bucket.tokens < 1) return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
    bucket.tokens -= 1;
    return 0;
  }

  /** Gives back a token `take` took for `key` (what it paid for did not happen), up to the burst. */
  give(key: string): void {
    const bucket = this.#buckets.get(key);
    if (bucket) bucket.tokens = Math.min(this.options.burst, bucket.tokens + 1);
  }
}

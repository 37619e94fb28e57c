/**
 * A full garbage collection after the memory store has let go of enough bytes (ADR 051).
 *
 * Deno keeps a Blob's bytes in Rust, outside V8's heap, and frees them only when V8 collects the small JS
 * object that refers to them; V8 does not count those bytes, so it sees no reason to collect. The memory store
 * lets go of a whole photo's worth at a time: an upload of a photo it already holds (kept once; the upload's
 * own copy becomes garbage) and an expired or deleted entry. On the public corpus's mixed run (the same 24
 * photos uploaded seven times) that garbage lay in the main thread's malloc arena through the next batch's
 * largest jobs: the run peaked 1,251 MB, and 1,171-1,184 MB with this collector.
 *
 * A collection on the server's thread pauses it (51-107 ms measured beside two busy codec workers): it runs only
 * after `thresholdBytes` have been let go, waits `delayMs` so the request that let them go has ended and
 * dropped its own references, and comes at most once per `minIntervalMs`.
 */
export interface LetGoOptions {
  collect: () => void;
  thresholdBytes?: number;
  delayMs?: number;
  minIntervalMs?: number;
  maxWaitMs?: number;
  now?: () => number;
}

export class LetGoCollector {
  readonly #collect: () => void;
  readonly #threshold: number;
  readonly #delayMs: number;
  readonly #minIntervalMs: number;
  readonly #maxWaitMs: number;
  readonly #now: () => number;
  #pending = 0;
  #lastAt = -Infinity;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #dueSince: number | null = null;

  constructor(options: LetGoOptions) {
    this.#collect = options.collect;
    this.#threshold = options.thresholdBytes ?? 48 * 2 ** 20;
    this.#delayMs = options.delayMs ?? 1_000;
    this.#minIntervalMs = options.minIntervalMs ?? 10_000;
    this.#maxWaitMs = options.maxWaitMs ?? 10_000;
    this.#now = options.now ?? (() => performance.now());
  }

  /**
   * Bytes no longer held: counted towards the next collection. Once they reach the threshold a collection is due
   * `delayMs` after the last bytes let go (an upload lets go of its photos one by one, and its request holds
   * them until it ends), but no later than `maxWaitMs` after it first came due.
   */
  letGo(bytes: number): void {
    this.#pending += bytes;
    if (this.#pending < this.#threshold) return;
    const now = this.#now();
    this.#dueSince ??= now;
    const at = Math.max(
      Math.min(now + this.#delayMs, this.#dueSince + this.#maxWaitMs),
      this.#lastAt + this.#minIntervalMs,
    );
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#run(), Math.max(0, at - now));
  }

  /** Bytes let go since the last collection. */
  get pendingBytes(): number {
    return this.#pending;
  }

  close(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #run(): void {
    this.#timer = null;
    this.#dueSince = null;
    this.#pending = 0;
    this.#lastAt = this.#now();
    this.#collect();
  }
}

/**
 * Counts events per key in a sliding window, in memory (per process; a restart
 * forgets, which only loosens it). Memory stays bounded under a spray of keys.
 */
export class SlidingWindow {
  #hits = new Map<string, number[]>();

  constructor(
    private limit: number,
    private windowMs: number,
    private now: () => number = Date.now,
    private maxKeys = 100_000,
  ) {}

  /** Records a hit for `key` and returns 0, or, at the limit, the seconds until one is allowed (nothing recorded). */
  take(key: string): number {
    const now = this.now();
    const list = (this.#hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length >= this.limit) {
      this.#hits.set(key, list);
      return Math.max(1, Math.ceil((list[list.length - this.limit]! + this.windowMs - now) / 1000));
    }
    list.push(now);
    this.#hits.set(key, list);
    forgetOldest(this.#hits, this.maxKeys);
    return 0;
  }
}

/** Keeps an in-memory map under `max` keys by dropping the oldest tenth (maps iterate in insertion order). */
export function forgetOldest(map: Map<string, unknown>, max: number): void {
  if (map.size <= max) return;
  for (const key of map.keys()) {
    map.delete(key);
    if (map.size <= max * 0.9) break;
  }
}

import type { ByteStore } from "./types.ts";

export interface SweepOptions {
  /** Only keys under this prefix (default `jobs/`). */
  prefix?: string;
  /** Objects stored before this time are removed. */
  storedBefore: Date;
  /** Keeps an object the app still wants (e.g. its job is alive in the database) despite its age. */
  keep?: (key: string) => boolean | Promise<boolean>;
}

/**
 * The app's retention sweep over the store itself: removes objects stored before `storedBefore`
 * that `keep` does not claim, and answers the keys removed. Backends have no TTL of their own
 * (ADR 014); the database decides a job's expiry, this catches the bytes no row points to any
 * more (a crash between storing and recording, a job deleted while another instance wrote).
 */
export async function sweepStoredBefore(store: ByteStore, options: SweepOptions): Promise<string[]> {
  const removed: string[] = [];
  const stale: string[] = [];
  for await (const object of store.list(options.prefix ?? "jobs/")) {
    if (object.storedAt < options.storedBefore) stale.push(object.key);
  }
  for (const key of stale) {
    if (options.keep && await options.keep(key)) continue;
    await store.delete(key);
    removed.push(key);
  }
  return removed;
}

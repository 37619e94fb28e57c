/**
 * Retention (DESIGN §5, §8): the result TTL, enforced by the app on every store backend (backends
 * have no TTL of their own, ADR 014), and the sweep of stored bytes no job claims.
 */
import { sweepStoredBefore } from "../../store/mod.ts";
import type { Transitions } from "../lifecycle/transitions.ts";
import type { JobFiles } from "./job-files.ts";
import type { CompressionReads } from "./reads.ts";

/** A stored object no live job claims is removed once it is this much older than the TTL. */
const STRAY_GRACE_MS = 10 * 60_000;

export interface RetentionDeps {
  reads: Pick<CompressionReads, "dueToExpire" | "needsBytes">;
  transitions: Pick<Transitions, "expire">;
  files: Pick<JobFiles, "free" | "store">;
  /** How long results are kept after they complete. */
  ttlMs: number;
  now: () => number;
}

export class Retention {
  constructor(private readonly deps: RetentionDeps) {}

  /** Marks completed jobs whose time is up expired (one transition), then frees their bytes. */
  async sweepExpired(): Promise<number> {
    const { reads, transitions, files, now } = this.deps;
    const due = (await reads.dueToExpire(new Date(now()))).map((r) => r.id);
    await files.free(await transitions.expire(due));
    return due.length;
  }

  /**
   * Deletes stored objects older than the TTL (plus a grace) that no live job claims: bytes a
   * crash left between storing and recording, or a delete that failed. Answers the keys removed.
   */
  async sweepStrays(storedBefore = new Date(Date.now() - this.deps.ttlMs - STRAY_GRACE_MS)): Promise<string[]> {
    const jobOf = (key: string) => key.split("/")[1] ?? "";
    return await sweepStoredBefore(this.deps.files.store, {
      storedBefore,
      keep: (key) => this.deps.reads.needsBytes(jobOf(key)),
    });
  }
}

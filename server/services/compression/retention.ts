/**
 * Retention (DESIGN §5, §8): the result TTL, enforced by the app on every store backend (backends
 * have no TTL of their own, ADR 014), and recovery at start.
 */
import * as q from "../../../db/queries/jobs.ts";
import { sweepStoredBefore } from "../../store/mod.ts";
import type { CompressionCore } from "./core.ts";

/** A stored object no live job claims is removed once it is this much older than the TTL. */
const STRAY_GRACE_MS = 10 * 60_000;

export class Retention {
  #c: CompressionCore;

  constructor(core: CompressionCore) {
    this.#c = core;
  }

  /** Marks completed jobs whose time is up expired (one transition), then deletes their bytes. */
  async sweepExpired(): Promise<number> {
    const due = (await q.dueToExpire(this.#c.db, new Date(this.#c.now()))).map((r) => r.id);
    await this.#c.lifecycle.expire(due);
    await Promise.all(due.map((id) => this.#c.files.delete(id)));
    return due.length;
  }

  /**
   * Deletes stored objects older than the TTL (plus a grace) that no live job claims: bytes a
   * crash left between storing and recording, or a delete that failed. Answers the keys removed.
   */
  async sweepStrays(storedBefore = new Date(Date.now() - this.#c.ttlMs - STRAY_GRACE_MS)): Promise<string[]> {
    const jobOf = (key: string) => key.split("/")[1] ?? "";
    return await sweepStoredBefore(this.#c.files.store, {
      storedBefore,
      keep: (key) => q.needsBytes(this.#c.db, jobOf(key)),
    });
  }

  /**
   * At start. With the memory store the previous process's bytes are gone: its unfinished work
   * fails with RESTART_MESSAGE and gives its quota back, and its completed results are expired.
   * With a persistent store (file, S3) completed results stay until their TTL; unfinished work
   * whose original is gone fails the same way.
   */
  async recoverAfterRestart(): Promise<number> {
    const orphans = await q.unfinishedJobs(this.#c.db);
    await this.#c.lifecycle.abandon(orphans.map((r) => r.id));
    if (this.#c.files.store.kind === "memory") await this.#c.lifecycle.expireAllCompleted();
    return orphans.length;
  }
}

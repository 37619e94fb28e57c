/** Retention (DESIGN §5, §8): the result TTL sweep and recovery at start. */
import * as q from "../../../db/queries/jobs.ts";
import type { CompressionCore } from "./core.ts";

export class Retention {
  #c: CompressionCore;

  constructor(core: CompressionCore) {
    this.#c = core;
  }

  /** Deletes bytes whose time is up and marks their jobs expired. */
  async sweepExpired(): Promise<number> {
    const now = this.#c.now();
    const expired: string[] = [];
    for (const [jobId, at] of this.#c.expiries) {
      if (at > now) continue;
      this.#c.expiries.delete(jobId);
      expired.push(jobId);
    }
    await this.#c.lifecycle.expire(expired);
    for (const jobId of expired) this.#c.store.delete(jobId);
    return expired.length;
  }

  /**
   * At start: work a previous process left unfinished lost its bytes with that
   * process, so it fails with a clear message and gives its quota back.
   */
  async recoverAfterRestart(): Promise<number> {
    const orphans = await q.unfinishedJobs(this.#c.db);
    await this.#c.lifecycle.abandon(orphans.map((r) => r.id));
    await this.#c.lifecycle.expireAllCompleted();
    return orphans.length;
  }
}

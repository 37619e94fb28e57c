/**
 * The runner: runs a queued job on the codec pool and ends it through the lifecycle on every path
 * (completed, failed, or found cancelled or deleted), then measures deferred scores in idle slots.
 */
import type { Job } from "../../../contract/jobs.ts";
import { PLANS } from "../../../contract/plans.ts";
import { planOf } from "../plan.ts";
import * as q from "../../../db/queries/jobs.ts";
import { findUserById } from "../../../db/queries/users.ts";
import { isCodecError } from "../../../codecs/mod.ts";
import type { StoredFile } from "./byte-store.ts";
import type { QueuedJob } from "./scheduler.ts";
import { UNEXPECTED_MESSAGE } from "./lifecycle.ts";
import { batchSettings } from "./views.ts";
import type { CompressionCore } from "./core.ts";

/** The format actually served: a kept original is a JPEG even when WebP was asked for. */
const formatOf = (file: StoredFile): Job["format"] => file.mimeType === "image/webp" ? "webp" : "jpeg";

export class Runner {
  #c: CompressionCore;

  constructor(core: CompressionCore) {
    this.#c = core;
  }

  async run(queued: QueuedJob, signal: AbortSignal): Promise<void> {
    const original = this.#c.store.original(queued.jobId);
    const batch = await q.findBatch(this.#c.db, queued.batchId);
    if (!batch) return;
    if (!original) {
      return this.#fail(queued.jobId, batch.id, "The original image is no longer in memory; please upload it again");
    }
    const row = await this.#c.lifecycle.start(queued.jobId);
    if (!row) return;
    this.#c.progress.set(row.id, 0);
    const settings = batchSettings(batch);
    const user = await findUserById(this.#c.db, row.userId);
    const plan = user ? planOf(user, this.#c.now()) : PLANS.free;
    let scoreDue = false;
    try {
      // The pool takes (detaches) the buffer it gets: it gets a fresh copy of the stored original.
      const outcome = await this.#c.compressor.compress(new Uint8Array(await original.data.arrayBuffer()), settings, {
        signal,
        maxPixels: plan.maxPixels,
        // A fixed-quality result is served first and scored when a worker is idle.
        deferScore: !settings.target,
        onProgress: (p) => this.#c.progress.set(row.id, Math.max(0, Math.min(99, Math.round(p)))),
      });
      if (signal.aborted) return;
      const result: StoredFile = outcome.keptOriginal
        ? original
        : { data: new Blob([outcome.bytes as Uint8Array<ArrayBuffer>]), mimeType: outcome.mimeType };
      this.#c.store.putResult(row.id, result);
      this.#c.store.putThumbnail(row.id, {
        data: new Blob([outcome.thumbnail as Uint8Array<ArrayBuffer>]),
        mimeType: "image/jpeg",
      });
      scoreDue = outcome.scores === null;
      // Never bigger: returning the original costs no quota (within the day's refunds).
      const completed = await this.#c.lifecycle.complete(row.id, {
        compressedSize: outcome.keptOriginal ? row.originalSize : outcome.compressedSize,
        quality: outcome.chosenQuality ?? settings.quality,
        format: formatOf(result),
        width: outcome.width,
        height: outcome.height,
        keptOriginal: outcome.keptOriginal,
        scoresJson: outcome.scores && JSON.stringify(outcome.scores),
        scoreDue,
        metadataJson: JSON.stringify(outcome.metadata),
      }, this.#c.ttlMs);
      if (!completed) {
        // Cancelled or deleted while it ran: its result goes with it.
        this.#c.store.delete(row.id);
        return;
      }
      this.#c.expiries.set(row.id, completed.expiresAt!.getTime());
    } catch (err) {
      if (signal.aborted) return; // the canceller records the outcome
      const message = isCodecError(err) ? err.message : UNEXPECTED_MESSAGE;
      if (!isCodecError(err)) console.error(`Job ${row.id} failed:`, err);
      await this.#fail(row.id, batch.id, message);
      return;
    } finally {
      this.#c.progress.delete(row.id);
    }
    if (scoreDue) this.#queueScore(row.id, queued.pixels);
  }

  #queueScore(jobId: string, pixels: number): void {
    this.#c.scheduler.enqueueBackground({ id: `score:${jobId}`, pixels, run: (signal) => this.#score(jobId, signal) });
  }

  /** Measures a completed result that was served before its score (a deferred score). */
  async #score(jobId: string, signal: AbortSignal): Promise<void> {
    const original = this.#c.store.original(jobId), result = this.#c.store.result(jobId);
    try {
      if (!original || !result) throw new Error("its bytes are gone");
      const [a, b] = await Promise.all([original.data.arrayBuffer(), result.data.arrayBuffer()]);
      const scores = await this.#c.compressor.score(new Uint8Array(a), new Uint8Array(b), { signal });
      await this.#c.lifecycle.scoreArrived(jobId, JSON.stringify(scores));
    } catch (err) {
      if (signal.aborted) return; // shutting down
      console.error(`Job ${jobId} could not be scored:`, err);
      // The result stays downloadable; the card says it has no measurement.
      await this.#c.lifecycle.scoreArrived(jobId, null);
    }
  }

  /** Ends an unfinished job in error, gives its unit back and frees its bytes; pauses its batch if asked. */
  async #fail(jobId: string, batchId: string, message: string): Promise<void> {
    const { paused } = await this.#c.lifecycle.fail(jobId, message);
    this.#c.store.delete(jobId);
    if (paused) this.#c.scheduler.pauseBatch(batchId);
  }
}

/**
 * The runner: runs a queued job on the codec pool and ends it through a transition on every path
 * (completed, failed, or found cancelled or deleted), or releases its lease, then measures
 * deferred scores in idle slots. What happens to the job's bytes is each transition's answer,
 * handed to JobFiles.free: a run never decides by itself whose bytes go.
 */
import type { Job } from "../../../contract/jobs.ts";
import { PLANS } from "../../../contract/plans.ts";
import { compressSettingsOf } from "../../../contract/settings.ts";
import { planOf } from "../plan.ts";
import * as q from "../../../db/queries/jobs.ts";
import { findUserById } from "../../../db/queries/users.ts";
import { isCodecError } from "../../../codecs/mod.ts";
import { formatOfMimeType } from "../../../contract/formats.ts";
import type { QueuedJob } from "../scheduling/policy.ts";
import { type JobFailure, UNEXPECTED_MESSAGE } from "../lifecycle/transitions.ts";
import type { JobErrorCode } from "../../domain-error.ts";
import { batchSettings } from "./views.ts";
import { packWebSet } from "./web-set-pack.ts";
import type { CompressionCore } from "./core.ts";

/** The format a result's media type is (a kept original is a JPEG). */
const formatOf = (mimeType: string): Job["format"] => formatOfMimeType(mimeType) ?? "jpeg";

export const ORIGINAL_GONE = "The original image is no longer held; please upload it again";

/** Background tasks that measure a job's deferred score are named this, then the job's id. */
export const SCORE_TASK = "score:";

/** The jobs whose deferred scores the scheduler's `runningBackgroundIds` are measuring. */
export const measuringJobIds = (taskIds: string[]): string[] =>
  taskIds.filter((id) => id.startsWith(SCORE_TASK)).map((id) => id.slice(SCORE_TASK.length));

/** A job that cannot go on, with its code and the message its card shows. */
class JobEnded extends Error {
  constructor(readonly code: JobErrorCode, message: string) {
    super(message);
  }
}

export class Runner {
  #c: CompressionCore;

  constructor(core: CompressionCore) {
    this.#c = core;
  }

  async run(queued: QueuedJob, signal: AbortSignal): Promise<void> {
    const batch = await q.findBatch(this.#c.db, queued.batchId);
    if (!batch) return;
    const owner = this.#c.instanceId;
    if (!await this.#c.files.has(queued.jobId, "original")) {
      return this.#fail(queued.jobId, batch.id, { code: "original_gone", message: ORIGINAL_GONE });
    }
    const row = batch.status === "paused"
      ? null
      : await this.#c.transitions.start(queued.jobId, owner, this.#c.now() + this.#c.leaseMs);
    if (!row) {
      // Paused after this instance queued it (maybe through another instance): let it wait.
      if ((await q.findBatch(this.#c.db, batch.id))?.status === "paused") await this.#wait(queued);
      return;
    }
    this.#log("start", row.id);
    this.#c.progress.set(row.id, 0);
    let scoreDue = false;
    /** Whether a transition ended the run (else the lease is released for another try). */
    let ended = false;
    try {
      const settings = compressSettingsOf(batchSettings(batch));
      const user = await findUserById(this.#c.db, row.userId);
      const plan = user ? planOf(user, this.#c.now()) : PLANS.free;
      const original = await this.#c.files.forCodec(row.id, "original");
      if (!original) throw new JobEnded("original_gone", ORIGINAL_GONE);
      const outcome = await this.#c.compressor.compress(original, settings, {
        signal,
        maxPixels: plan.maxPixels,
        // A fixed-quality result is served first and scored when a worker is idle.
        deferScore: !settings.target,
        onProgress: (p) => this.#c.progress.set(row.id, Math.max(0, Math.min(99, Math.round(p)))),
      });
      if (signal.aborted) return;
      // Our lease may have lapsed while the pool worked (a stalled process): then the job is
      // another instance's, and its bytes in a shared store are not ours to overwrite.
      if (!await this.#c.leases.holds(row.id, owner)) {
        ended = true;
        return;
      }
      // A web set's result is its files packed with their markup; a kept original is served from the
      // original itself (no second copy is stored).
      const packed = outcome.set ? packWebSet(row.filename, outcome.set) : null;
      if (packed) await this.#c.files.put(row.id, "result", packed.zip, "application/zip");
      else if (!outcome.keptOriginal) await this.#c.files.put(row.id, "result", outcome.bytes, outcome.mimeType);
      await this.#c.files.put(row.id, "thumbnail", outcome.thumbnail, "image/jpeg");
      scoreDue = outcome.scores === null;
      // Never bigger: returning the original costs no quota (within the day's refunds).
      const { completed, ...bytes } = await this.#c.transitions.complete(row.id, owner, {
        compressedSize: packed ? packed.zip.length : outcome.keptOriginal ? row.originalSize : outcome.compressedSize,
        quality: outcome.chosenQuality ?? settings.quality,
        format: outcome.keptOriginal ? "jpeg" : packed ? settings.format : formatOf(outcome.mimeType),
        encoder: outcome.keptOriginal ? null : outcome.encoder,
        width: outcome.width,
        height: outcome.height,
        keptOriginal: outcome.keptOriginal,
        scoresJson: outcome.scores && JSON.stringify(outcome.scores),
        scoreDue,
        metadataJson: JSON.stringify(outcome.metadata),
        webSetJson: packed && JSON.stringify(packed.webSet),
        formatChoiceJson: outcome.formatChoice ? JSON.stringify(outcome.formatChoice) : null,
        heldSize: outcome.heldSize ?? null,
      }, this.#c.ttlMs);
      ended = true;
      if (!completed) {
        // Cancelled or deleted while it ran: its result goes with it. (Adopted by another
        // instance meanwhile: the bytes are that instance's now, and the transition keeps them.)
        await this.#c.files.free(bytes);
        return;
      }
    } catch (err) {
      if (signal.aborted) return; // the canceller records the outcome
      const failure: JobFailure = isCodecError(err)
        ? { code: err.code, message: err.message }
        : err instanceof JobEnded
        ? { code: err.code, message: err.message }
        : { code: "unexpected", message: UNEXPECTED_MESSAGE };
      if (failure.code === "unexpected") this.#c.log.error("job failed", { job: row.id, error: err });
      ended = true;
      await this.#fail(row.id, batch.id, failure);
      return;
    } finally {
      this.#log("end", row.id);
      this.#c.progress.delete(row.id);
      // Aborted (cancelled, deleted, lease lost: a no-op then) or a transition that threw.
      if (!ended) {
        await this.#c.leases.release(row.id, owner).catch((err) =>
          this.#c.log.error("job lease not released", { job: row.id, error: err })
        );
      }
      this.#c.endings.ended([row.id]);
    }
    if (scoreDue) this.queueScore(row.id, queued.pixels);
  }

  #log(event: "start" | "end", jobId: string): void {
    this.#c.log.debug("job run", { event, job: jobId, instance: this.#c.instanceId, at: Date.now() });
  }

  /** Puts a completed job's deferred score on the scheduler's idle-time queue. */
  queueScore(jobId: string, pixels: number): void {
    this.#c.scheduler.enqueueBackground({
      id: `${SCORE_TASK}${jobId}`,
      pixels,
      run: (signal) => this.#score(jobId, signal),
    });
  }

  /** Measures a completed result that was served before its score (a deferred score). */
  async #score(jobId: string, signal: AbortSignal): Promise<void> {
    // Another instance may measure it already (a shared queue picks up scores left unmeasured).
    const c = this.#c;
    if (c.sharedQueue && !await c.leases.claimScore(jobId, c.instanceId, c.now() + c.leaseMs).catch(() => false)) {
      return;
    }
    try {
      const original = await c.files.forCodec(jobId, "original");
      // A kept original is its own result.
      const result = await c.files.forCodec(jobId, "result") ?? await c.files.forCodec(jobId, "original");
      if (!original || !result) throw new Error("its bytes are gone");
      const scores = await c.compressor.score(original, result, { signal });
      await c.transitions.scoreArrived(jobId, JSON.stringify(scores));
    } catch (err) {
      if (signal.aborted) return; // shutting down
      c.log.error("job not scored", { job: jobId, error: err });
      // The result stays downloadable; the card says it has no measurement.
      await c.transitions.scoreArrived(jobId, null);
    }
  }

  /**
   * A job of a paused batch waits: on a shared queue it goes back to the queue, for whichever
   * instance has room once the batch resumes (through any instance); alone, this instance's
   * scheduler holds it, and the resume that comes through here releases it.
   */
  async #wait(queued: QueuedJob): Promise<void> {
    const c = this.#c;
    if (c.sharedQueue) {
      await c.leases.release(queued.jobId, c.instanceId);
    } else {
      c.scheduler.pauseBatch(queued.batchId);
      c.scheduler.enqueue([queued]);
      // A resume that came in meanwhile found no mark to clear.
      if ((await q.findBatch(c.db, queued.batchId))?.status !== "paused") c.scheduler.resumeBatch(queued.batchId);
    }
  }

  /** Ends an unfinished job in error, gives its unit back and frees its bytes; pauses its batch if asked. */
  async #fail(jobId: string, batchId: string, failure: JobFailure): Promise<void> {
    let outcome;
    try {
      outcome = await this.#c.transitions.fail(jobId, failure, this.#c.instanceId);
    } catch (err) {
      // The database refused even the failure: the job stays as it is until the next start
      // (or its lease expires) and is ended then; its bytes stay for that.
      this.#c.log.error("job not marked failed", { job: jobId, error: err });
      return;
    }
    // Not failed here (no longer ours): whoever ended or holds it owns its bytes, and none are named.
    if (outcome.paused) this.#c.scheduler.pauseBatch(batchId);
    this.#c.endings.ended([jobId]);
    await this.#c.files.free(outcome);
  }
}

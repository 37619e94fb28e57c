/**
 * The runner: runs a queued job on the codec pool and ends it through a transition on every path
 * (completed, failed, or found cancelled or deleted), or releases its lease. What happens to the
 * job's bytes is each transition's answer, handed to JobFiles.free: a run never decides by itself
 * whose bytes go. It never sees the scheduler: the scheduler calls `run` (a callback it was built
 * with), and a run's effects on the queue go through the JobQueue.
 */
import type { Job } from "../../../contract/jobs.ts";
import { PLANS } from "../../../contract/plans.ts";
import { type CompressSettings, compressSettingsOf } from "../../../contract/settings.ts";
import { planOf } from "../plan.ts";
import { isCodecError } from "../../../codecs/mod.ts";
import { formatOfMimeType } from "../../../contract/formats.ts";
import type { QueuedJob } from "../scheduling/policy.ts";
import { type JobFailure, type Transitions, UNEXPECTED_MESSAGE } from "../lifecycle/transitions.ts";
import type { Leases, LeaseTerms } from "../lifecycle/leases.ts";
import type { JobErrorCode } from "../../domain-error.ts";
import type { Logger } from "../../log.ts";
import { batchSettings } from "./views.ts";
import { packWebSet } from "./web-set-pack.ts";
import type { CompressCall, Compressor, CompressOutcome } from "./compressor.ts";
import type { HeadStarts } from "./head-starts.ts";
import type { JobEndings } from "./job-endings.ts";
import type { JobFiles } from "./job-files.ts";
import type { JobQueue } from "./job-queue.ts";
import type { CompressionReads } from "./reads.ts";

/** The format a result's media type is (a kept original is a JPEG). */
const formatOf = (mimeType: string): Job["format"] => formatOfMimeType(mimeType) ?? "jpeg";

export const ORIGINAL_GONE = "The original image is no longer held; please upload it again";

/** A job that cannot go on, with its code and the message its card shows. */
class JobEnded extends Error {
  constructor(readonly code: JobErrorCode, message: string) {
    super(message);
  }
}

export interface RunnerDeps {
  reads: Pick<CompressionReads, "findBatch" | "findUserById">;
  transitions: Pick<Transitions, "start" | "complete" | "fail">;
  leases: Pick<Leases, "holds" | "release">;
  files: Pick<JobFiles, "has" | "forCodec" | "put" | "free">;
  compressor: Pick<Compressor, "compress">;
  /** Work begun while the job's upload arrived (ADR 056): the run takes it over. */
  headStarts?: Pick<HeadStarts, "take">;
  jobQueue: Pick<JobQueue, "waitPaused" | "batchPaused">;
  lease: LeaseTerms;
  now: () => number;
  /** How long results are kept after they complete. */
  ttlMs: number;
  /** Live progress of the runs here, so polling never waits on a database write. */
  progress: Map<string, number>;
  endings: Pick<JobEndings, "ended">;
  /** A completed result was served before its score: measure it in an idle slot (deferred-scores.ts). */
  scoreDue: (jobId: string, pixels: number) => void;
  log: Logger;
}

export class Runner {
  constructor(private readonly deps: RunnerDeps) {}

  /** `lanes`: the workers the scheduler granted this job (a web set running alone may take more than one). */
  async run(queued: QueuedJob, signal: AbortSignal, lanes = 1): Promise<void> {
    const { reads, transitions, leases, files, lease, now, progress } = this.deps;
    const batch = await reads.findBatch(queued.batchId);
    if (!batch) return;
    const owner = lease.owner;
    if (!await files.has(queued.jobId, "original")) {
      return this.#fail(queued.jobId, batch.id, { code: "original_gone", message: ORIGINAL_GONE });
    }
    const row = batch.status === "paused" ? null : await transitions.start(queued.jobId, owner, now() + lease.ms);
    if (!row) {
      // Paused after this instance queued it (maybe through another instance): let it wait.
      if ((await reads.findBatch(batch.id))?.status === "paused") await this.deps.jobQueue.waitPaused(queued);
      return;
    }
    this.#log("start", row.id);
    progress.set(row.id, 0);
    let scoreDue = false;
    /** Whether a transition ended the run (else the lease is released for another try). */
    let ended = false;
    try {
      const settings = compressSettingsOf(batchSettings(batch));
      const user = await reads.findUserById(row.userId);
      const plan = user ? planOf(user, now()) : PLANS.free;
      const call: CompressCall = {
        signal,
        maxPixels: plan.maxPixels,
        // A fixed-quality result is served first and scored when a worker is idle.
        deferScore: !settings.target,
        lanes,
        onProgress: (p) => progress.set(row.id, Math.max(0, Math.min(99, Math.round(p)))),
      };
      const outcome =
        await (this.deps.headStarts?.take(row.id, settings, call) ?? this.#compress(row.id, settings, call));
      if (signal.aborted) return;
      // Our lease may have lapsed while the pool worked (a stalled process): then the job is
      // another instance's, and its bytes in a shared store are not ours to overwrite.
      if (!await leases.holds(row.id, owner)) {
        ended = true;
        return;
      }
      // A web set's result is its files packed with their markup; a kept original is served from the
      // original itself (no second copy is stored).
      const packed = outcome.set ? packWebSet(row.filename, outcome.set) : null;
      if (packed) await files.put(row.id, "result", packed.zip, "application/zip");
      else if (!outcome.keptOriginal) await files.put(row.id, "result", outcome.bytes, outcome.mimeType);
      await files.put(row.id, "thumbnail", outcome.thumbnail, "image/jpeg");
      scoreDue = outcome.scores === null;
      // Never bigger: returning the original costs no quota (within the day's refunds).
      const { completed, ...bytes } = await transitions.complete(row.id, owner, {
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
      }, this.deps.ttlMs);
      ended = true;
      if (!completed) {
        // Cancelled or deleted while it ran: its result goes with it. (Adopted by another
        // instance meanwhile: the bytes are that instance's now, and the transition keeps them.)
        await files.free(bytes);
        return;
      }
    } catch (err) {
      if (signal.aborted) return; // the canceller records the outcome
      const failure: JobFailure = isCodecError(err)
        ? { code: err.code, message: err.message }
        : err instanceof JobEnded
        ? { code: err.code, message: err.message }
        : { code: "unexpected", message: UNEXPECTED_MESSAGE };
      if (failure.code === "unexpected") this.deps.log.error("job failed", { job: row.id, error: err });
      ended = true;
      await this.#fail(row.id, batch.id, failure);
      return;
    } finally {
      this.#log("end", row.id);
      progress.delete(row.id);
      // Aborted (cancelled, deleted, lease lost: a no-op then) or a transition that threw.
      if (!ended) {
        await leases.release(row.id, owner).catch((err) =>
          this.deps.log.error("job lease not released", { job: row.id, error: err })
        );
      }
      this.deps.endings.ended([row.id]);
    }
    if (scoreDue) this.deps.scoreDue(row.id, queued.pixels);
  }

  /** The job's compression from its stored original (no head start began it). */
  async #compress(jobId: string, settings: CompressSettings, call: CompressCall): Promise<CompressOutcome> {
    const original = await this.deps.files.forCodec(jobId, "original");
    if (!original) throw new JobEnded("original_gone", ORIGINAL_GONE);
    return await this.deps.compressor.compress(original, settings, call);
  }

  #log(event: "start" | "end", jobId: string): void {
    this.deps.log.debug("job run", { event, job: jobId, instance: this.deps.lease.owner, at: Date.now() });
  }

  /** Ends an unfinished job in error, gives its unit back and frees its bytes; pauses its batch if asked. */
  async #fail(jobId: string, batchId: string, failure: JobFailure): Promise<void> {
    const { files, endings, log } = this.deps;
    let outcome;
    try {
      outcome = await this.deps.transitions.fail(jobId, failure, this.deps.lease.owner);
    } catch (err) {
      // The database refused even the failure: the job stays as it is until the next start
      // (or its lease expires) and is ended then; its bytes stay for that.
      log.error("job not marked failed", { job: jobId, error: err });
      return;
    }
    // Not failed here (no longer ours): whoever ended or holds it owns its bytes, and none are named.
    if (outcome.paused) this.deps.jobQueue.batchPaused(batchId);
    endings.ended([jobId]);
    await files.free(outcome);
  }
}

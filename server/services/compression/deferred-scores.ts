/**
 * Deferred scores: a fixed-quality result is served before its quality is measured; the
 * measurement runs later in an idle slot of the scheduler, as background work.
 */
import type { Leases, LeaseTerms } from "../lifecycle/leases.ts";
import type { Transitions } from "../lifecycle/transitions.ts";
import type { Logger } from "../../log.ts";
import { SCORE_BYTES_PER_PIXEL } from "../../../codecs/mod.ts";
import type { Compressor } from "./compressor.ts";
import type { JobFiles } from "./job-files.ts";
import type { Scheduler } from "./scheduler.ts";

/** Background tasks that measure a job's deferred score are named this, then the job's id. */
export const SCORE_TASK = "score:";

/** The jobs whose deferred scores the scheduler's `runningBackgroundIds` are measuring. */
export const measuringJobIds = (taskIds: string[]): string[] =>
  taskIds.filter((id) => id.startsWith(SCORE_TASK)).map((id) => id.slice(SCORE_TASK.length));

export interface DeferredScoresDeps {
  scheduler: Pick<Scheduler, "enqueueBackground">;
  /** On a shared queue a score is claimed first (`leases.claimScore`): another instance may measure it already. */
  sharedQueue: boolean;
  leases: Pick<Leases, "claimScore">;
  lease: LeaseTerms;
  now: () => number;
  files: Pick<JobFiles, "forCodec">;
  compressor: Pick<Compressor, "score">;
  transitions: Pick<Transitions, "scoreArrived">;
  log: Logger;
}

export class DeferredScores {
  constructor(private readonly deps: DeferredScoresDeps) {}

  /** Puts a completed job's score on the scheduler's idle-time queue. */
  queue(jobId: string, pixels: number): void {
    this.deps.scheduler.enqueueBackground({
      id: `${SCORE_TASK}${jobId}`,
      pixels,
      perPixel: SCORE_BYTES_PER_PIXEL,
      run: (signal) => this.#score(jobId, signal),
    });
  }

  async #score(jobId: string, signal: AbortSignal): Promise<void> {
    const { files, lease, now, transitions } = this.deps;
    const claimed = () => this.deps.leases.claimScore(jobId, lease.owner, now() + lease.ms).catch(() => false);
    if (this.deps.sharedQueue && !await claimed()) return;
    try {
      const original = await files.forCodec(jobId, "original");
      // A kept original is its own result.
      const result = await files.forCodec(jobId, "result") ?? await files.forCodec(jobId, "original");
      if (!original || !result) throw new Error("its bytes are gone");
      const scores = await this.deps.compressor.score(original, result, { signal });
      await transitions.scoreArrived(jobId, JSON.stringify(scores));
    } catch (err) {
      if (signal.aborted) return; // shutting down
      this.deps.log.error("job not scored", { job: jobId, error: err });
      // The result stays downloadable; the card says it has no measurement.
      await transitions.scoreArrived(jobId, null);
    }
  }
}

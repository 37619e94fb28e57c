/**
 * Head starts (ADR 056): a file of an upload is compressed as soon as it has arrived whole, while the
 * rest of the body still streams in and before the batch is admitted, in a slot the scheduler would
 * leave idle. Once admitted, the file's job takes the work over (`take`) instead of starting it again:
 * a batch's first results no longer wait for its last byte and for the admission after it.
 *
 * It is the job's own work done early, with the settings the job will have: a head start whose
 * settings turn out otherwise (a field sent after the files changed them), whose upload is refused,
 * or whose job ends before it runs, is dropped and its work aborted.
 */
import type { CompressSettings } from "../../../contract/settings.ts";
import { jobBytesPerPixel } from "../../../codecs/mod.ts";
import type { CompressCall, Compressor, CompressOutcome } from "./compressor.ts";
import type { Scheduler } from "./scheduler.ts";

/** Background tasks that run a head start are named this, then a number. */
export const HEAD_START_TASK = "head:";

/** One file's head start, as the admission holds it until the file is a job (or refused). */
export interface HeadStart {
  /**
   * The file is this job now, admitted with these settings: the job's run may take the work over. Dropped
   * instead when not begun yet or begun with other settings (a field sent after the file changed them).
   */
  assign(jobId: string, settings: CompressSettings, maxPixels: number): void;
  /** Not admitted: the work is dropped (nothing once assigned). */
  drop(): void;
}

interface Started {
  taskId: string;
  /** The settings and pixel limit the work runs with: a job takes it only with the same. */
  key: string;
  controller: AbortController;
  /** Set once the scheduler ran the task: the compressor's promise. */
  outcome: Promise<CompressOutcome> | null;
  /** Ends the background task's hold on its slot (a job's slot holds the work from then on). */
  handOver: () => void;
  /** The work's progress so far, and where it goes (the job's, once taken). */
  percent: number;
  onProgress: (percent: number) => void;
}

export interface HeadStartsDeps {
  scheduler: Pick<Scheduler, "enqueueBackground" | "dropBackground" | "handOver">;
  compressor: Pick<Compressor, "compress">;
}

const keyOf = (settings: CompressSettings, maxPixels: number) => JSON.stringify([settings, maxPixels]);

export class HeadStarts {
  #byJob = new Map<string, Started>();
  #seq = 0;

  constructor(private readonly deps: HeadStartsDeps) {}

  /** Head starts assigned to jobs and not yet taken or dropped (for tests and leaks). */
  get held(): number {
    return this.#byJob.size;
  }

  /**
   * Queues `file`'s compression as a job with `settings` would run it (one lane; a web set, which may take
   * more, never gets a head start), to start when a slot is idle within the memory budget.
   */
  begin(
    file: Blob,
    pixels: number,
    settings: CompressSettings,
    job: { maxPixels: number; userId: number; userLimit: number },
  ): HeadStart {
    const { maxPixels } = job;
    const controller = new AbortController();
    let handOver!: () => void;
    const handedOver = new Promise<void>((resolve) => (handOver = resolve));
    const started: Started = {
      taskId: `${HEAD_START_TASK}${++this.#seq}`,
      key: keyOf(settings, maxPixels),
      controller,
      outcome: null,
      handOver,
      percent: 0,
      onProgress: () => {},
    };
    this.deps.scheduler.enqueueBackground({
      id: started.taskId,
      pixels,
      bytes: file.size,
      perPixel: jobBytesPerPixel(settings),
      user: { id: job.userId, limit: job.userLimit },
      run: (signal) => {
        if (controller.signal.aborted) return Promise.resolve();
        signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
        const outcome = this.deps.compressor.compress(file, settings, {
          signal: controller.signal,
          maxPixels,
          deferScore: !settings.target,
          lanes: 1,
          onProgress: (p) => {
            started.percent = p;
            started.onProgress(p);
          },
        });
        outcome.catch(() => {}); // a dropped head start's failure is nobody's; a taken one's is the job's
        started.outcome = outcome;
        // The slot is held until the work ends or a job's slot takes it over.
        return Promise.race([outcome.then(() => {}, () => {}), handedOver]);
      },
    });
    let assigned = false;
    return {
      assign: (jobId, settings, maxPixels) => {
        if (assigned || controller.signal.aborted) return;
        // Not begun yet: the job runs in its turn as any other, by the scheduler's policy (paused, priority).
        if (!started.outcome || started.key !== keyOf(settings, maxPixels)) return this.#stop(started, "Not admitted");
        assigned = true;
        this.#byJob.set(jobId, started);
        this.deps.scheduler.handOver(started.taskId, jobId);
      },
      drop: () => {
        if (!assigned) this.#stop(started, "Not admitted");
      },
    };
  }

  /**
   * The job's work, begun by its head start, following the job's call from now on (its progress, its
   * cancellation); null when the job runs it itself (none assigned, or not with the job's settings now).
   */
  take(jobId: string, settings: CompressSettings, call: CompressCall): Promise<CompressOutcome> | null {
    const started = this.#byJob.get(jobId);
    if (!started) return null;
    this.#byJob.delete(jobId);
    const { outcome } = started;
    if (!outcome || started.key !== keyOf(settings, call.maxPixels) || started.controller.signal.aborted) {
      this.#stop(started, "Not taken");
      return null;
    }
    started.onProgress = call.onProgress;
    call.onProgress(started.percent);
    if (call.signal.aborted) started.controller.abort(call.signal.reason);
    else call.signal.addEventListener("abort", () => started.controller.abort(call.signal.reason), { once: true });
    started.handOver();
    return outcome;
  }

  /** These jobs ended without running here (cancelled, deleted, expired): their head starts go. */
  forget(jobIds: Iterable<string>): void {
    for (const id of jobIds) {
      const started = this.#byJob.get(id);
      if (!started) continue;
      this.#byJob.delete(id);
      this.#stop(started, "Job ended");
    }
  }

  /** Off the queue if not begun, aborted if running, and its slot let go. */
  #stop(started: Started, reason: string): void {
    this.deps.scheduler.dropBackground(started.taskId);
    started.controller.abort(new DOMException(reason, "AbortError"));
    started.handOver();
  }
}

import type { Db } from "../../../db/client.ts";
import type { JobFiles } from "./job-files.ts";
import type { Compressor } from "./compressor.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { Scheduler } from "./scheduler.ts";

/**
 * What the parts of the compression core share (admission, runner, queries, controls, retention):
 * the database and its transitions, the byte store, the pool and the scheduler. The map is a
 * cache of this process (live progress); nothing another instance needs lives here.
 */
export interface CompressionCore {
  /** This process's random id: the owner of the leases it holds (ADR 018). */
  instanceId: string;
  /** How long a lease holds without renewal. */
  leaseMs: number;
  db: Db;
  lifecycle: Lifecycle;
  /** Originals, results and thumbnails in the byte store (STORE_URL). */
  files: JobFiles;
  compressor: Compressor;
  scheduler: Scheduler;
  now: () => number;
  /** How long results are kept after they complete. */
  ttlMs: number;
  /** Live progress of running jobs, so polling never waits on a database write. */
  progress: Map<string, number>;
  /**
   * Several instances share the database's queue (ADR 018): admission records jobs with no owner
   * and wakes `pullQueue`; instances with workers pull them (queue-puller.ts).
   */
  sharedQueue: boolean;
  /** Wakes this instance's pull of the shared queue (a no-op when it runs no jobs). */
  pullQueue: () => void;
  /** Print a line when a job starts and ends here (LOG_JOB_RUNS; tests check no job ran twice at once). */
  logRuns: boolean;
  /** False once draining: uploads are refused. */
  accepting: boolean;
}

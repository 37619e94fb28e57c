import type { Db } from "../../../db/client.ts";
import type { JobFiles } from "./job-files.ts";
import type { Compressor } from "./compressor.ts";
import type { Transitions } from "../lifecycle/transitions.ts";
import type { Leases } from "../lifecycle/leases.ts";
import type { QueueReads } from "../lifecycle/queue-reads.ts";
import type { Scheduler } from "./scheduler.ts";
import type { Logger } from "../../log.ts";
import type { JobEndings } from "./job-endings.ts";

/**
 * What the parts of the compression core share (admission, runner, queries, controls, retention):
 * the database (its transitions, leases and queue reads), the byte store, the pool and the
 * scheduler. The map is a cache of this process (live progress); nothing another instance needs
 * lives here.
 */
export interface CompressionCore {
  /** This process's random id: the owner of the leases it holds (ADR 018). */
  instanceId: string;
  /** How long a lease holds without renewal. */
  leaseMs: number;
  db: Db;
  /** Every change of a job's or batch's state, one transaction each (ADR 017). */
  transitions: Transitions;
  /** Who holds a job, until when (ADR 018). */
  leases: Leases;
  /** What the shared queue offers, and who has how many jobs in work. */
  queue: QueueReads;
  /** Originals, results and thumbnails in the byte store (STORE_URL); freed only through `free`. */
  files: JobFiles;
  compressor: Compressor;
  scheduler: Scheduler;
  now: () => number;
  /** How long results are kept after they complete. */
  ttlMs: number;
  /** Live progress of running jobs, so polling never waits on a database write. */
  progress: Map<string, number>;
  /** Wakes callers waiting for a job when a run here ends it (the API's synchronous compress). */
  endings: JobEndings;
  /**
   * Several instances share the database's queue (ADR 018): admission records jobs with no owner
   * and wakes `wakeQueue`; instances with workers pull them (queue-puller.ts).
   */
  sharedQueue: boolean;
  /** Wakes this instance's pull of the shared queue (a no-op when it runs no jobs). */
  wakeQueue: () => void;
  /** Where the core logs (a debug line as each job run starts and ends). */
  log: Logger;
  /** False once draining: uploads are refused. */
  accepting: boolean;
}

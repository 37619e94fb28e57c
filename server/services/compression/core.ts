import type { Db } from "../../../db/client.ts";
import type { ByteStore } from "./byte-store.ts";
import type { Compressor } from "./compressor.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { Scheduler } from "./scheduler.ts";

/**
 * What the parts of the compression core share (admission, runner, queries, controls, retention):
 * the database and its transitions, the byte store, the pool and the scheduler. The maps are
 * caches of this process (live progress, expiry times); nothing another instance needs lives here.
 */
export interface CompressionCore {
  db: Db;
  lifecycle: Lifecycle;
  store: ByteStore;
  compressor: Compressor;
  scheduler: Scheduler;
  now: () => number;
  /** How long results are kept after they complete. */
  ttlMs: number;
  /** Live progress of running jobs, so polling never waits on a database write. */
  progress: Map<string, number>;
  /** Completed jobs' expiry times, for the retention sweep. */
  expiries: Map<string, number>;
  /** False once draining: uploads are refused. */
  accepting: boolean;
}

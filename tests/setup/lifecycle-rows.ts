/**
 * Driving the lifecycle (server/services/lifecycle/) directly: its three parts on one database,
 * and rows for one pending batch with its pending, charged jobs.
 */
import { DEFAULT_SAVED_SETTINGS } from "../../contract/settings.ts";
import type { Db } from "../../db/client.ts";
import type { BatchRow, JobRow } from "../../db/schema.ts";
import { Transitions } from "../../server/services/lifecycle/transitions.ts";
import { Leases } from "../../server/services/lifecycle/leases.ts";
import { QueueReads } from "../../server/services/lifecycle/queue-reads.ts";

/** One instance's view of the lifecycle: its transitions, leases and queue reads, on `db` at `now`. */
export function lifecycleOn(db: Db, now: () => number) {
  return { transitions: new Transitions(db, now), leases: new Leases(db, now), queue: new QueueReads(db, now) };
}

export interface PendingBatchOptions {
  batchId: string;
  userId: number;
  count: number;
  /** Each job's original size. */
  originalSize: number;
  quotaDay: string;
  now: number;
  /** The jobs are held by instance "A" until then. */
  leaseUntil: number;
  pauseOnError?: boolean;
}

export function pendingBatch(o: PendingBatchOptions): { batch: BatchRow; jobs: JobRow[] } {
  const batch: BatchRow = {
    id: o.batchId,
    userId: o.userId,
    name: o.batchId,
    status: "pending",
    totalFiles: o.count,
    totalOriginalSize: o.count * o.originalSize,
    settingsJson: JSON.stringify({
      ...DEFAULT_SAVED_SETTINGS,
      maxConcurrent: 2,
      pauseOnError: o.pauseOnError ?? false,
    }),
    createdAt: new Date(o.now),
    apiKeyId: null,
  };
  const jobs: JobRow[] = Array.from({ length: o.count }, (_, i) => ({
    id: `${o.batchId}-j${i}`,
    batchId: o.batchId,
    userId: o.userId,
    seq: i,
    filename: `${i}.jpg`,
    status: "pending",
    progress: 0,
    originalSize: o.originalSize,
    compressedSize: null,
    quality: 80,
    format: "jpeg",
    encoder: null,
    width: null,
    height: null,
    errorMessage: null,
    errorCode: null,
    keptOriginal: false,
    scoreDue: false,
    scoresJson: null,
    metadataJson: null,
    webSetJson: null,
    formatChoiceJson: null,
    heldSize: null,
    charged: true,
    quotaDay: o.quotaDay,
    sourceJobId: null,
    createdAt: new Date(o.now),
    completedAt: null,
    expiresAt: null,
    expired: false,
    pixels: 0,
    leaseOwner: "A",
    leaseExpiresAt: new Date(o.leaseUntil),
  }));
  return { batch, jobs };
}

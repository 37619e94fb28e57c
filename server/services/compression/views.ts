import type { WebSet } from "../../../contract/web-sets.ts";
import type { FormatChoiceReport } from "../../../contract/formats.ts";
import {
  type Batch,
  type BatchStatus,
  goalNote,
  type Job,
  type JobStatus,
  type MetadataReport,
  type QualityScores,
  sizeTargetNote,
  withSsimulacra2,
} from "../../../contract/jobs.ts";
import { compressSettingsOf, parseStoredSettings, type SavedSettings } from "../../../contract/settings.ts";
import type { BatchRow, JobRow } from "../../../db/schema.ts";

export const ALREADY_OPTIMISED = "already optimised";

const parse = <T>(json: string | null): T | null => (json ? JSON.parse(json) as T : null);

/**
 * Job JSON (contract/jobs.ts) with its batch's compression settings; `liveProgress` overrides the
 * stored progress while processing.
 */
export function toJob(row: JobRow, settings: SavedSettings, liveProgress?: number): Job {
  const scores = withSsimulacra2(parse<QualityScores>(row.scoresJson));
  return {
    id: row.id,
    batchId: row.batchId,
    filename: row.filename,
    status: row.status as JobStatus,
    progress: row.status === "processing" ? (liveProgress ?? row.progress) : row.progress,
    originalSize: row.originalSize,
    compressedSize: row.compressedSize,
    quality: row.quality,
    format: row.format as Job["format"],
    encoder: row.encoder ?? null,
    settings: compressSettingsOf(settings),
    width: row.width,
    height: row.height,
    errorMessage: row.errorMessage,
    keptOriginal: row.keptOriginal,
    note: row.keptOriginal ? ALREADY_OPTIMISED : sizeTargetNote(settings, scores) ?? goalNote(settings, scores),
    scores,
    scorePending: row.status === "completed" && row.scoreDue && !row.expired,
    metadata: parse<MetadataReport>(row.metadataJson),
    webSet: parse<WebSet>(row.webSetJson),
    formatChoice: parse<FormatChoiceReport>(row.formatChoiceJson),
    heldSize: row.heldSize,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    expired: row.expired,
    sourceJobId: row.sourceJobId,
  };
}

/**
 * A batch's settings (compression and batch options, ADR 024), validated on read: keys added since
 * the row was written take their defaults; a row written by a broken build fails loudly here.
 */
export function batchSettings(row: Pick<BatchRow, "settingsJson">): SavedSettings {
  return parseStoredSettings(row.settingsJson);
}

export function toBatch(row: BatchRow, jobs: Job[]): Batch {
  const settings = batchSettings(row);
  return {
    id: row.id,
    name: row.name,
    status: row.status as BatchStatus,
    totalFiles: row.totalFiles,
    totalOriginalSize: row.totalOriginalSize,
    priority: settings.priority,
    maxConcurrent: settings.maxConcurrent,
    pauseOnError: settings.pauseOnError,
    createdAt: row.createdAt.toISOString(),
    jobs,
  };
}

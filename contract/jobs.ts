/** JSON shapes of the compression API (spec §3 and §7, DESIGN §5). */
import { type BatchPriority, type CodecId, type CompressSettings, scoreGoalOf } from "./settings.ts";
import type { WebSet } from "./web-sets.ts";
import { AUTO_FORMAT, type FormatChoice, type FormatChoiceReport, type OutputFormat } from "./formats.ts";
import { scoreWordMin, shownScore } from "./score-words.ts";

export const JOB_STATUSES = ["pending", "processing", "completed", "error"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const BATCH_STATUSES = ["pending", "processing", "paused", "completed", "cancelled", "error"] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** Spec §4: the batch controls each status allows, for the server's checks and the web's buttons alike. */
export const canPauseBatch = (s: BatchStatus) => s === "processing";
export const canResumeBatch = (s: BatchStatus) => s === "paused";
/** The statuses a batch can be cancelled from: every unfinished one. */
export const CANCELLABLE_BATCH_STATUSES = ["pending", "processing", "paused"] as const satisfies readonly BatchStatus[];
export const canCancelBatch = (s: BatchStatus) => (CANCELLABLE_BATCH_STATUSES as readonly BatchStatus[]).includes(s);

/**
 * Measured by the server from the decoded original and output with SSIMULACRA 2.1
 * (definitions: codecs/README.md).
 */
export interface QualityScores {
  /** The SSIMULACRA 2.1 score as the metric gives it (100 identical; can be negative). */
  ssimulacra2: number;
  /** SSIMULACRA 2 clamped to 0-100; targets and "auto" use it (90 visually lossless, 80 not noticeable at 1:1). */
  score: number;
  /** 0-100 from the metric's detail-loss (blur) map, on SSIMULACRA 2's scale (ADR 026). */
  sharpness: number;
  /** 0-100 from the metric's chroma channels (X, B), on SSIMULACRA 2's scale (ADR 026). */
  colorAccuracy: number;
  /** 0-100 from the metric's artifact (ringing, blocking, banding) map, on SSIMULACRA 2's scale (ADR 026). */
  artifacts: number;
  /** = score; its word and colour come from contract/score-words.ts (≥ 90 Lossless … ≥ 80 green). */
  overall: number;
}

export interface MetadataReport {
  found: string[];
  kept: string[];
  removed: string[];
  /** The EXIF orientation of the input (1-8), applied to the pixels. */
  orientation: number;
}

export interface Job {
  id: string;
  batchId: string;
  filename: string;
  status: JobStatus;
  progress: number;
  originalSize: number;
  compressedSize: number | null;
  /** The quality setting used (the chosen one when a target was searched). */
  quality: number;
  /** The result's format: `auto` until format=auto has chosen (then `formatChoice` says against what). */
  format: CompressSettings["format"];
  /** The encoder that made the result's bytes (a target's search reports the one it kept); null until completed and when the original was kept. */
  encoder: CodecId | null;
  settings: CompressSettings;
  width: number | null;
  height: number | null;
  errorMessage: string | null;
  keptOriginal: boolean;
  /** "already optimised" when the original was kept; a warning when a size target cost too much quality. */
  note: string | null;
  scores: QualityScores | null;
  /** Completed and downloadable, its score still being measured (it arrives in `scores`). */
  scorePending: boolean;
  metadata: MetadataReport | null;
  /** A web set (Premium, issue 30): its files with sizes and scores; the download is their ZIP. Null for one output. */
  webSet: WebSet | null;
  /** format=auto's choice: the format written and the best other one's bytes. Null when the format was set. */
  formatChoice: FormatChoiceReport | null;
  /** JPEG XL: the size of the JPEG it holds (and gives back byte for byte). Null for other formats. */
  heldSize: number | null;
  createdAt: string;
  completedAt: string | null;
  /** When the bytes are deleted from memory (null until completed). */
  expiresAt: string | null;
  /** True once the bytes are gone: downloads answer 410. */
  expired: boolean;
  /** Set on a re-compression: the job whose upload it re-used. */
  sourceJobId: string | null;
}

export interface Batch {
  id: string;
  name: string;
  status: BatchStatus;
  totalFiles: number;
  totalOriginalSize: number;
  priority: BatchPriority;
  maxConcurrent: number;
  pauseOnError: boolean;
  createdAt: string;
  jobs: Job[];
}

/** A file of an upload refused on its own (the others were accepted); it also has a failed entry in `jobs`. */
export interface RefusedFile {
  filename: string;
  /** The status the upload would have answered had this been its only file (413, 415). */
  status: number;
  error: string;
}

export interface CompressResponse {
  /** Every file's job: accepted ones pending, refused ones failed with their reason. */
  jobs: Job[];
  batch: Batch;
  refused: RefusedFile[];
}

/**
 * `GET /api/preview/:id` serves the original; `?size=thumb` a small upright
 * JPEG of a completed job (short side 128 px or more) for the job list.
 */
export const PREVIEW_SIZES = ["original", "thumb"] as const;
export type PreviewSize = (typeof PREVIEW_SIZES)[number];

export interface QueueStatus {
  maxConcurrentJobs: number;
  currentlyProcessing: number;
  availableSlots: number;
}

export interface Usage {
  used: number;
  /** null = unlimited (Premium). */
  limit: number | null;
  /** ISO time of the next UTC midnight. */
  resetsAt: string;
}

export interface SubscriptionStatusResponse {
  hasActiveSubscription: boolean;
  subscriptionStatus: string;
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  /** Why a non-premium status is not premium, for the subscription card. */
  message: string | null;
}

export { downloadName } from "./file-names.ts";

/**
 * Quality labels (spec §9): the words of the quality setting (the encoder's 1-100 slider), not of a
 * measured score, whose words are on SSIMULACRA 2's scale (contract/score-words.ts).
 */
export function qualityLabel(q: number): string {
  if (q >= 95) return "Lossless";
  if (q >= 85) return "Excellent";
  if (q >= 75) return "Very Good";
  if (q >= 65) return "Good";
  if (q >= 50) return "Fair";
  if (q >= 35) return "Poor";
  return "Very Poor";
}

/** Below this score a size target's result is visibly degraded: under "Fair" (SSIMULACRA 2 "medium quality"). */
export const SIZE_TARGET_WARN_BELOW = scoreWordMin("Fair");

/** The job note a size target earns when the size it asked for cost too much quality. */
export function sizeTargetNote(settings: CompressSettings, scores: QualityScores | null): string | null {
  if (settings.target?.kind !== "size" || !scores || scores.score >= SIZE_TARGET_WARN_BELOW) return null;
  const shown = shownScore(scores.score);
  return `size target reached at a quality score of ${shown.value}, below ${SIZE_TARGET_WARN_BELOW}: ${shown.word}, visibly degraded`;
}

/**
 * The job note a score goal earns when no setting reached it (e.g. WebP, which has no full chroma, on sharp colour
 * detail): the best score reached is what the job delivers.
 */
export function goalNote(settings: CompressSettings, scores: QualityScores | null): string | null {
  const goal = scoreGoalOf(settings);
  if (goal === null || !scores || scores.ssimulacra2 >= goal - GOAL_ROUNDING) return null;
  return `no setting reached SSIMULACRA 2 ${goal} on this photo: the best reached ${
    Math.floor(scores.ssimulacra2 * 10) / 10
  }`;
}
/** Scores are stored as measured; a result a hair under its goal (rounding) passed the search's own check. */
const GOAL_ROUNDING = 0.05;

/** Scores stored before SSIMULACRA 2 lack `ssimulacra2`: their score stands in for it. */
export function withSsimulacra2(scores: QualityScores | null): QualityScores | null {
  return scores && typeof scores.ssimulacra2 !== "number" ? { ...scores, ssimulacra2: scores.score } : scores;
}

/** Rounded percent saved (spec §9). */
export const sizeReduction = (original: number, compressed: number): number =>
  original > 0 ? Math.round(((original - compressed) / original) * 100) : 0;

/**
 * A result's real format: a kept original stays a JPEG, whatever was asked (a job still on `auto` has no
 * result yet: JPEG, its upload's, names it meanwhile).
 */
export const resultFormat = (job: { keptOriginal: boolean; format: FormatChoice }): OutputFormat =>
  job.keptOriginal || job.format === AUTO_FORMAT ? "jpeg" : job.format;

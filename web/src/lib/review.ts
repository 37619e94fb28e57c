/**
 * A batch at a glance (issue 15 item 7): byte-weighted savings, the lowest measured score, and
 * the warnings a job deserves. Pure functions over the API's job shape, shared by the job list,
 * the batch rows and the sidebar.
 */
import { codecLabel } from "../../../contract/codec-labels.ts";
import type { Job } from "../../../contract/jobs.ts";
import { REVIEW_BELOW, shownScore } from "../../../contract/score-words.ts";
import { CODEC_IDS } from "../../../contract/settings.ts";
import { formatBytes } from "../../../contract/format-bytes.ts";
import { pageWeight, resultBytes } from "./page-weight.ts";

type Measured = Pick<Job, "status" | "originalSize" | "compressedSize" | "scores" | "keptOriginal" | "webSet">;

/** The web sets among them: how many, and the bytes a phone and a desktop load of one, on average. */
export interface SetWeights {
  count: number;
  phoneBytes: number;
  desktopBytes: number;
}

export interface Savings {
  /** Completed images counted. */
  images: number;
  originalBytes: number;
  savedBytes: number;
  /** Saved bytes over original bytes, in percent (a big photo weighs more than a thumbnail). */
  percent: number;
  /** The lowest measured overall score among them, null when none was measured. */
  lowestScore: number | null;
  /** Their web sets' page weight; absent or null when there are none. */
  sets?: SetWeights | null;
}

export function savings(jobs: readonly Measured[]): Savings {
  let images = 0;
  let originalBytes = 0;
  let savedBytes = 0;
  let lowestScore: number | null = null;
  const sets = { count: 0, phoneBytes: 0, desktopBytes: 0 };
  for (const j of jobs) {
    if (j.status !== "completed") continue;
    images++;
    originalBytes += j.originalSize;
    // A web set counts the file a desktop loads (its page weight), never its ZIP (page-weight.ts).
    savedBytes += Math.max(0, j.originalSize - resultBytes(j));
    if (j.webSet && j.webSet.files.length > 0) {
      const weight = pageWeight(j.webSet);
      sets.count++;
      sets.phoneBytes += weight.phone.bytes;
      sets.desktopBytes += weight.desktop.bytes;
    }
    // A kept original is the original: its score says nothing about compression.
    const score = j.keptOriginal ? null : j.scores?.overall;
    if (typeof score === "number") lowestScore = lowestScore === null ? score : Math.min(lowestScore, score);
  }
  const percent = originalBytes > 0 ? Math.round((savedBytes / originalBytes) * 100) : 0;
  const setWeights = sets.count === 0 ? null : {
    count: sets.count,
    phoneBytes: Math.round(sets.phoneBytes / sets.count),
    desktopBytes: Math.round(sets.desktopBytes / sets.count),
  };
  return { images, originalBytes, savedBytes, percent, lowestScore, sets: setWeights };
}

/**
 * "Saved 15.3 MB (56%) across 20 images · lowest score 85 (Excellent)", and with web sets
 * "· 3 sets: phone 41 KB, desktop 160 KB on average" (null when nothing completed).
 */
export function savingsText(s: Savings): string | null {
  if (s.images === 0) return null;
  const head = `Saved ${formatBytes(s.savedBytes)} (${s.percent}%) across ${s.images} image${
    s.images === 1 ? "" : "s"
  }`;
  const parts = [head];
  if (s.lowestScore !== null) {
    const lowest = shownScore(s.lowestScore);
    parts.push(`lowest score ${lowest.value} (${lowest.word})`);
  }
  if (s.sets) {
    const weights = `phone ${formatBytes(s.sets.phoneBytes)}, desktop ${formatBytes(s.sets.desktopBytes)}`;
    parts.push(s.sets.count === 1 ? `set: ${weights}` : `${s.sets.count} sets: ${weights} on average`);
  }
  return parts.join(" · ");
}

/**
 * The codecs that made the completed results: "Encoder: jpegli", or "Encoders: MozJPEG 12, jpegli 8" in the
 * registry's order; null when none did (nothing completed yet, or only originals kept).
 */
export function encodersText(jobs: readonly Pick<Job, "status" | "encoder">[]): string | null {
  const made = jobs.filter((j) => j.status === "completed").map((j) => j.encoder);
  const counts = CODEC_IDS.map((id) => ({ id, n: made.filter((e) => e === id).length })).filter((c) => c.n > 0);
  if (counts.length === 0) return null;
  if (counts.length === 1) return `Encoder: ${codecLabel(counts[0]!.id)}`;
  return `Encoders: ${counts.map((c) => `${codecLabel(c.id)} ${c.n}`).join(", ")}`;
}

/** A size target that pushed quality under this is called out. */
export const LOW_TARGET_QUALITY = 40;

/** Why a completed job deserves a look before it is used, or null. */
export function jobWarning(
  job: Pick<Job, "status" | "scores" | "quality" | "settings" | "keptOriginal">,
): string | null {
  if (job.status !== "completed" || job.keptOriginal) return null;
  const target = job.settings?.target;
  if (target?.kind === "size" && job.quality < LOW_TARGET_QUALITY) {
    return `The ${target.kb} KB target forced quality ${job.quality} (below ${LOW_TARGET_QUALITY}): check it in Compare`;
  }
  const score = job.scores?.overall;
  // Red on the score scale (contract/score-words.ts): below 65.
  const shown = typeof score === "number" ? shownScore(score) : null;
  if (shown?.tone === "poor") {
    return `Score ${shown.value} (${shown.word}) is below ${REVIEW_BELOW}: check it in Compare`;
  }
  return null;
}

export type JobOrder = "newest" | "lowest-score" | "largest" | "already-optimised";

export const JOB_ORDERS: { value: JobOrder; label: string }[] = [
  { value: "newest", label: "Newest first" },
  { value: "lowest-score", label: "Lowest score first" },
  { value: "largest", label: "Largest file first" },
  { value: "already-optimised", label: "Already optimised only" },
];

/** The list in the chosen order (or filtered); the server's order (newest first) breaks ties. */
export function orderJobs<T extends Measured>(jobs: readonly T[], order: JobOrder): T[] {
  const list = [...jobs];
  const score = (j: Measured) =>
    (j.status === "completed" && !j.keptOriginal ? j.scores?.overall : undefined) ?? Infinity;
  switch (order) {
    case "lowest-score":
      return list.sort((a, b) => score(a) - score(b));
    case "largest":
      return list.sort((a, b) => b.originalSize - a.originalSize);
    case "already-optimised":
      return list.filter((j) => j.keptOriginal);
    default:
      return list;
  }
}

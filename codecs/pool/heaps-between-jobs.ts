/**
 * When a codec worker gives its large heaps back (idle-heaps.ts): before each job, unless the job is the fixed
 * path's and alike the last one; and after a moment with no job. A batch's photos come one after another with
 * the same settings, and each one dropping and regrowing MozJPEG's encoder heap (16 bytes per pixel) cost the
 * fixed path about a fifth of its time (validation set, one worker: 9.7-10.1 s against 7.8-7.9 with the heaps
 * kept). ADR 037.
 */
import { AUTO_FORMAT, losslessOf } from "../../contract/formats.ts";
import type { CompressSettings } from "../../contract/settings.ts";
import { giveBackHeapsWhenIdle, giveBackIdleHeaps, heldWhenIdle } from "../idle-heaps.ts";
import { isFixedPath } from "./job-memory.ts";

/**
 * An alike job needs this share of the pixels of the largest image that grew the heaps, so that heaps grown by a
 * larger image stay within the job's own estimate: the fixed path's reservations (pool/job-memory.ts
 * `fixedJpegBytesPerPixel`) are what it was measured to use, divided by this share.
 */
export const KEEP_FROM_SHARE = 0.85;
/**
 * A worker idle this long gives its heaps back, so that they do not sit beside the other worker's job (the
 * scheduler hands a freed worker its next job within milliseconds; one held back by the memory budget waits).
 */
export const IDLE_RELEASE_MS = 250;

/**
 * The jobs that may find the last one's heaps: the fixed path's (one encode, its score deferred), keyed by their
 * settings. A job that measures reaches its estimate by itself (a mid-size JPEG auto job 43-48 bytes per pixel;
 * kept heaps took a public-corpus batch on auto from 1,260 to 1,380 MB), and a JPEG XL job's two steps give
 * their heaps back in between (kept, libjxl's sat beside the next job's JPEG step: 2,123 MB).
 */
export function keepKind(settings: CompressSettings, deferScore: boolean): string | null {
  const fixedPath = deferScore && isFixedPath(settings);
  const oneStep = settings.format !== AUTO_FORMAT && losslessOf(settings.format) === null;
  return fixedPath && oneStep ? JSON.stringify(settings) : null;
}

/** What the held heaps were grown for: the kind of job and the largest image since. */
let grownFor: { kind: string; pixels: number } | null = null;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

async function release(idle = false): Promise<void> {
  grownFor = null;
  await (idle ? giveBackHeapsWhenIdle() : giveBackIdleHeaps());
}

/**
 * Before a job of `kind` (`keepKind`; null: one that never keeps them) on an image of `pixels` (0 when unknown):
 * the heaps are given back unless the job is alike the last.
 */
export async function beforeJob(kind: string | null, pixels: number): Promise<void> {
  clearTimeout(idleTimer);
  const alike = kind !== null && grownFor?.kind === kind && pixels > 0 && pixels >= grownFor.pixels * KEEP_FROM_SHARE;
  if (!alike) await release();
  grownFor = kind === null ? null : { kind, pixels: Math.max(pixels, grownFor?.pixels ?? 0) };
}

/**
 * After a job: the heaps stay for the next one for IDLE_RELEASE_MS. Returns what the worker holds once idle
 * (what the pool's recycling threshold is measured against).
 */
export function afterJob(): number {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void release(true), IDLE_RELEASE_MS);
  return heldWhenIdle();
}

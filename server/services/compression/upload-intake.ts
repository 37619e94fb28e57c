/**
 * The plan's limits applied while an upload streams in (DESIGN §3): its bytes
 * are reserved in the byte store chunk by chunk, and the file count is checked
 * against the plan and the day's quota as each file arrives, so a refused
 * upload is cut off where it goes wrong instead of being read to its end.
 */
import { MB, type PlanLimits } from "../../../contract/plans.ts";
import { DomainError } from "../../domain-error.ts";
import type { Reservation } from "../../store/mod.ts";
import type { HeadStart } from "./head-starts.ts";
import { nextUtcMidnight } from "./quota-day.ts";

export const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

export const storeFull = () =>
  new DomainError("unavailable", "The server is busy with other images; please try again in a minute", {
    retryAfterSeconds: 60,
  });

/** `count` is the files in the upload, or "N or more" when it is cut off at the Nth. */
export const tooManyFiles = (plan: PlanLimits, count: number | string) =>
  new DomainError(
    "invalid_input",
    `Too many files: ${count} in one upload; the ${plan.name} plan allows ${plan.maxFilesPerUpload}`,
  );

/** The day's quota is used: what is left today, and when to try again (the quota resets at UTC midnight). */
export function dailyLimitReached(
  plan: PlanLimits,
  left: number,
  inUpload: number | string,
  nowMs: number,
): DomainError {
  const detail = left > 0 ? ` (${left} left today, ${inUpload} in this upload)` : "";
  const retryAfter = Math.max(1, Math.ceil((nextUtcMidnight(nowMs).getTime() - nowMs) / 1000));
  return new DomainError(
    "quota_exceeded",
    `Daily limit reached: ${plan.dailyCompressions} compressions per day on the free plan${detail}`,
    { retryAfterSeconds: retryAfter },
  );
}

export const fileTooLarge = (plan: PlanLimits, name?: string, size?: number) =>
  new DomainError(
    "too_large",
    name !== undefined && size !== undefined
      ? `'${name}' is ${mb(size)}; the ${plan.name} plan allows ${mb(plan.maxFileBytes)} per file`
      : `A file is larger than ${mb(plan.maxFileBytes)}, the most the ${plan.name} plan allows per file`,
  );

/** One uploaded file, judged alone: its header's pixel count, or why it is refused. */
export type FileVerdict = { pixels: number } | { refused: DomainError };

/** What a file's arrival began (ADR 056): its verdict, and its head start if one was begun. */
export interface EarlyFile {
  verdict: FileVerdict;
  headStart: HeadStart | null;
}

export class UploadIntake {
  constructor(
    readonly plan: PlanLimits,
    /** Compressions left today when the upload started; null = unlimited. */
    readonly quotaLeft: number | null,
    readonly reservation: Reservation,
    /** When the upload was opened (ms): the day its quota counts against. */
    readonly openedAt: number,
  ) {}

  #received = 0;

  /** Each file's early work, begun as it arrived whole (the admission reads it instead of starting again). */
  readonly early = new Map<File, Promise<EarlyFile>>();

  /**
   * Reserves room for a declared body at once (browsers always declare it), so
   * parallel uploads that do not all fit are refused whole, at their start,
   * instead of each getting part-way and all failing.
   */
  declare(contentLength: number): void {
    if (!this.reservation.grow(contentLength)) throw storeFull();
  }

  /** Counts a chunk as it arrives; reserves what goes past the room already held (refused when there is none). */
  take(bytes: number): void {
    this.#received += bytes;
    const more = this.#received - this.reservation.bytes;
    if (more > 0 && !this.reservation.grow(more)) throw storeFull();
  }

  /** The `count`th file has started to arrive. */
  countFile(count: number): void {
    if (count > this.plan.maxFilesPerUpload) throw tooManyFiles(this.plan, `${count} or more`);
    if (this.quotaLeft !== null && count > this.quotaLeft) {
      throw dailyLimitReached(this.plan, this.quotaLeft, `${count} or more`, this.openedAt);
    }
  }

  fileTooLarge(): DomainError {
    return fileTooLarge(this.plan);
  }

  #onRelease: (() => void) | null = null;

  /** Runs `fn` once, at the first `release`. */
  onRelease(fn: () => void): void {
    this.#onRelease = fn;
  }

  /**
   * Gives back the room the body reserved, and drops the head starts no job was given (idempotent: the route
   * and `admit` both call it).
   */
  release(): void {
    this.reservation.release();
    for (const early of this.early.values()) void early.then((e) => e.headStart?.drop(), () => {});
    const fn = this.#onRelease;
    this.#onRelease = null;
    fn?.();
  }
}

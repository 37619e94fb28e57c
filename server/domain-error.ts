/**
 * Errors the services throw: a code from a closed set, a user-facing message, and what the caller
 * may need to act on it (when to try again). No HTTP here: `app.onError` maps each code to its
 * status once (`http-error.ts`, STATUS_BY_CODE), as Hono's HTTPException carries a message and a cause.
 */
import { CODEC_ERROR_CODES, type CodecErrorCode } from "../codecs/errors.ts";

/** Why a job failed, stored beside its message (`jobs.error_code`): the codec's code, or one of the job's own. */
export const JOB_ERROR_CODES = [
  ...CODEC_ERROR_CODES,
  /** Its original was gone before it ran. */
  "original_gone",
  /** A restart lost its bytes (the job is abandoned at the next start). */
  "restarted",
  /** Its batch was cancelled before it finished. */
  "cancelled",
  /** Anything else: our fault, its details in the log. */
  "unexpected",
] as const;
export type JobErrorCode = (typeof JOB_ERROR_CODES)[number];

/** What a request may be refused for, besides the codes a job fails with. */
export const REQUEST_ERROR_CODES = [
  "invalid_input",
  "unauthenticated",
  "forbidden_plan",
  "not_found",
  "conflict",
  "gone",
  "too_large",
  /** Understood, but cannot be processed (a failed job whose row has no code: from before codes were stored). */
  "unprocessable",
  "rate_limited",
  "quota_exceeded",
  "upstream_failed",
  "unavailable",
] as const;

export const DOMAIN_ERROR_CODES = [...REQUEST_ERROR_CODES, ...JOB_ERROR_CODES] as const;
export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

export interface DomainErrorOptions extends ErrorOptions {
  /** When trying again may succeed, in seconds. */
  retryAfterSeconds?: number;
  /** Extra response headers the caller must see beside the message (an API key's challenge, a job's id). */
  headers?: Record<string, string>;
}

export class DomainError extends Error {
  override readonly name = "DomainError";
  readonly retryAfterSeconds: number | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(readonly code: DomainErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.headers = options.headers ?? {};
  }
}

/** A stored job error code as a known code; a row from before the column (null) or an unknown value: null. */
export function jobErrorCode(value: string | null): JobErrorCode | null {
  return (JOB_ERROR_CODES as readonly string[]).includes(value ?? "") ? value as JobErrorCode : null;
}

export type { CodecErrorCode };

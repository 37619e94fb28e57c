import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CODEC_ERROR_CODES, CodecError, type CodecErrorCode, HTTP_STATUS_BY_CODE } from "../codecs/errors.ts";
import { DomainError, type DomainErrorCode } from "./domain-error.ts";

/** An error the API answers with `{ error: message }` and this status: for routes and middleware (HTTP's own refusals). */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The codec's suggested statuses (codecs/errors.ts), with the server's final say where it differs. */
const CODEC_STATUS = Object.fromEntries(CODEC_ERROR_CODES.map((code) => [code, HTTP_STATUS_BY_CODE[code]])) as Record<
  CodecErrorCode,
  ContentfulStatusCode
>;
// 499 is nginx's "client closed request", no status to answer with: an abort no client asked for is
// the server stopping the work (a drain), so try again.
CODEC_STATUS.aborted = 503;

/** The one place a domain error code becomes an HTTP status. */
export const STATUS_BY_CODE: Readonly<Record<DomainErrorCode, ContentfulStatusCode>> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden_plan: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  quota_exceeded: 429,
  upstream_failed: 502,
  unavailable: 503,
  ...CODEC_STATUS,
  // A job's own failures (domain-error.ts JOB_ERROR_CODES).
  original_gone: 422,
  restarted: 503,
  cancelled: 409,
  unexpected: 500,
};

/** The status and headers a thrown error is answered with, or null for an error nobody expected. */
export function httpErrorOf(
  err: unknown,
): { status: ContentfulStatusCode; message: string; headers: Record<string, string> } | null {
  if (err instanceof ApiError) return { status: err.status, message: err.message, headers: err.headers };
  if (err instanceof DomainError) {
    const headers: Record<string, string> = { ...err.headers };
    if (err.retryAfterSeconds !== undefined) headers["Retry-After"] = String(err.retryAfterSeconds);
    return { status: STATUS_BY_CODE[err.code], message: err.message, headers };
  }
  if (err instanceof CodecError) return { status: STATUS_BY_CODE[err.code], message: err.message, headers: {} };
  return null;
}

/** A refusal with its own answer (a route's, a middleware's or a service's), passed on as it is by readers that wrap other errors. */
export const isRefusal = (err: unknown): err is ApiError | DomainError =>
  err instanceof ApiError || err instanceof DomainError;

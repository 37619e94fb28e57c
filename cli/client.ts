/**
 * One `POST /api/v1/compress` of one file, with its retries: 429 and 503 again after their
 * Retry-After (capped), a network error again after a short backoff. The file is streamed from disk
 * on every attempt, never held in memory. Each attempt is given up when no bytes move for the timeout.
 */
import { basename } from "node:path";
import { API_KEY_DISPLAY_LENGTH, V1 } from "../contract/api-keys.ts";
import { IdleTimeout } from "./idle-timeout.ts";

/** An answer every other file would get too: the run stops at once. */
export class RunStoppedError extends Error {}

/** The key was refused (401). */
export class KeyRefusedError extends RunStoppedError {
  constructor(message: string) {
    super(message);
    this.name = "KeyRefusedError";
  }
}

/** The account may not do this (403, e.g. a Premium setting on the free plan). */
export class ForbiddenError extends RunStoppedError {
  constructor(message: string) {
    super(message);
    this.name = "ForbiddenError";
  }
}

/** The server could not be reached at all (connection refused, no such host). */
export class UnreachableError extends RunStoppedError {
  constructor(message: string) {
    super(message);
    this.name = "UnreachableError";
  }
}

/** This file failed (bad settings, not a JPEG, too big, out of retries…); the others go on. */
export class FileFailedError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = "FileFailedError";
  }
}

/**
 * No bytes moved for the timeout. Not retried: the server may have the file and be working on it (its job
 * runs on, and counts, whether or not anyone waits), so another attempt could compress and charge it twice.
 */
export class TimedOutError extends FileFailedError {
  constructor(seconds: number) {
    super(`The server sent nothing for ${seconds} s (--timeout ${seconds}; raise it to wait longer)`);
    this.name = "TimedOutError";
  }
}

/** The default --timeout: above the minute the server may spend on one photo before it answers a byte. */
export const DEFAULT_TIMEOUT_SECONDS = 120;

export interface RetryPolicy {
  /** Further attempts after a 429 or 503. */
  busyRetries: number;
  /** The longest Retry-After waited for, in seconds; a longer one fails the file at once. */
  maxWaitSeconds: number;
  /** The wait after a 503 without Retry-After, in seconds. */
  defaultWaitSeconds: number;
  /** Further attempts after a network error. */
  networkRetries: number;
  /** The first network backoff in ms; it doubles. */
  backoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  busyRetries: 5,
  maxWaitSeconds: 60,
  defaultWaitSeconds: 5,
  networkRetries: 2,
  backoffMs: 500,
};

export interface RetryNotice {
  reason: string;
  waitMs: number;
  /** The attempt about to be made, from 2. */
  attempt: number;
}

export interface CompressClient {
  /** The server's base URL without a trailing slash. */
  url: string;
  key: string;
  /** The API path (default V1.compress; V1.restore for `restore`). */
  endpoint?: string;
  query: URLSearchParams;
  retry?: Partial<RetryPolicy>;
  /** An attempt is given up when no bytes move for this long (default DEFAULT_TIMEOUT_SECONDS). */
  timeoutSeconds?: number;
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
}

/** The endpoint for `client`'s settings. */
export function compressUrl(client: Pick<CompressClient, "url" | "query" | "endpoint">): string {
  const query = client.query.toString();
  return `${client.url}${client.endpoint ?? V1.compress}${query ? `?${query}` : ""}`;
}

/** The first characters of a key, enough to tell which one it was, never the secret. */
export const keyHint = (key: string): string => `${key.slice(0, API_KEY_DISPLAY_LENGTH)}…`;

/**
 * Sends `path`; resolves to the 200 response (its body unread: the caller verifies it and streams it to disk,
 * still under the timeout, which ends with the body). Throws a RunStoppedError (401, 403, unreachable) or
 * FileFailedError (a TimedOutError when no bytes moved for the timeout); an abort rejects with the signal's reason.
 */
export async function postImage(path: string, client: CompressClient): Promise<Response> {
  const policy = { ...DEFAULT_RETRY, ...client.retry };
  const url = compressUrl(client);
  const seconds = client.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  let busy = 0;
  let network = 0;
  for (let attempt = 1;; attempt++) {
    client.signal?.throwIfAborted();
    let res: Response;
    const idle = new IdleTimeout(seconds * 1000, () => new TimedOutError(seconds), client.signal);
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true });
    } catch (err) {
      idle.stop();
      throw err;
    }
    try {
      res = await fetch(url, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${client.key}`,
          "Content-Type": "image/jpeg",
          // The server names the job (and its errors) after the file.
          "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(basename(path))}`,
        },
        // Each chunk the request takes from the file is bytes moving.
        body: idle.watch(file.readable),
        signal: idle.signal,
      });
    } catch (err) {
      idle.stop();
      if (client.signal?.aborted) throw client.signal.reason;
      if (idle.expired) throw new TimedOutError(seconds);
      const detail = networkDetail(err);
      if (network >= policy.networkRetries) {
        if (isConnectFailure(err)) throw new UnreachableError(`Cannot reach ${client.url}: ${detail}`);
        throw new FileFailedError(`The connection to ${client.url} failed: ${detail}`);
      }
      const waitMs = policy.backoffMs * 2 ** network++;
      client.onRetry?.({ reason: detail, waitMs, attempt: attempt + 1 });
      await sleep(waitMs, client.signal);
      continue;
    } finally {
      // The body stream closes the file once read to the end; an early answer may leave it open.
      try {
        file.close();
      } catch { /* already closed */ }
    }
    if (res.status === 200) {
      const body = idle.watch(res.body ?? new Response(new Uint8Array()).body!, { stopAtEnd: true });
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    }

    const message = await errorMessage(res).finally(() => idle.stop());
    if (res.status === 401) {
      throw new KeyRefusedError(`The API key was refused (401): ${message} (key ${keyHint(client.key)})`);
    }
    if (res.status === 403) throw new ForbiddenError(`The server refused this request (403): ${message}`);
    if (res.status === 429 || res.status === 503) {
      const retryAfter = parseRetryAfter(res.headers.get("Retry-After"));
      const seconds = retryAfter ?? (res.status === 503 ? policy.defaultWaitSeconds : null);
      if (seconds === null || seconds > policy.maxWaitSeconds || busy >= policy.busyRetries) {
        const later = retryAfter === null ? "" : ` (retry after ${formatSeconds(retryAfter)})`;
        throw new FileFailedError(`${message}${later}`, res.status);
      }
      busy++;
      client.onRetry?.({ reason: `${res.status}: ${message}`, waitMs: seconds * 1000, attempt: attempt + 1 });
      await sleep(seconds * 1000, client.signal);
      continue;
    }
    throw new FileFailedError(`${message} (${res.status})`, res.status);
  }
}

/** The most of an error answer read: enough for any `{ "error": … }`, and a huge one is not held in memory. */
const ERROR_BODY_BYTES = 64 * 1024;

/** The server's `{ "error": … }`, or the start of whatever else it answered. */
async function errorMessage(res: Response): Promise<string> {
  const text = await readStart(res.body, ERROR_BODY_BYTES).catch(() => "");
  try {
    const body = JSON.parse(text);
    if (body && typeof body.error === "string") return body.error;
  } catch { /* not JSON */ }
  return text.trim().slice(0, 200) || res.statusText || `HTTP ${res.status}`;
}

/** Up to `max` bytes of `body` as text; the rest is not read. */
async function readStart(body: ReadableStream<Uint8Array> | null, max: number): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes.subarray(0, max));
}

/** Retry-After in seconds: a number of seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function formatSeconds(s: number): string {
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

/** The innermost useful words of a fetch failure, e.g. "tcp connect error: Connection refused (os error 111)". */
export function networkDetail(err: unknown): string {
  const messages: string[] = [];
  for (let e: unknown = err; e instanceof Error && messages.length < 5; e = e.cause) messages.push(e.message);
  const text = messages.at(-1) ?? String(err);
  return text.replace(/^fetch failed:\s*/i, "").replace(/^error sending request for url \([^)]*\):\s*/, "")
    .replace(/^client error \(\w+\):\s*/, "");
}

/** True when the connection was never made (refused, no such host, no route, a port fetch refuses): the server is not there. */
export function isConnectFailure(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (
      e instanceof Deno.errors.ConnectionRefused || e instanceof Deno.errors.AddrNotAvailable ||
      /\(Connect\)|tcp connect error|dns error|connection refused|Name or service not known|No route to host|Requests to port \d+ are blocked/i
        .test(
          e.message,
        )
    ) {
      return true;
    }
  }
  return false;
}

/** Waits `ms`; an abort rejects at once with the signal's reason. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener("abort", abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

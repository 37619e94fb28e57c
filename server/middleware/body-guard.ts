/**
 * Bounds every request body before a handler sees it: a size limit that fits
 * the route (refused from `Content-Length` before a byte is read, or cut off
 * while a chunked body streams), a read timeout for bodies that stall, and a
 * deadline for the whole body, so one that trickles is cut off too (ADR 022).
 * Bodies are never buffered here: the handler reads the same stream, metered.
 */
import type { Context, MiddlewareHandler } from "hono";
import { ApiError, isRefusal } from "../http-error.ts";
import { turnTaker } from "../event-loop.ts";

export interface BodyLimits {
  /** The most bytes this route's body may carry. */
  limitFor(c: Context): number;
  /** A body that sends nothing for this long is answered 408. */
  idleMs: number;
  /**
   * The whole body must have arrived this long after the request reached the
   * app, or it is answered 408. Asked when the handler first reads the body,
   * so it may depend on what the route learned by then (the user's plan).
   */
  deadlineFor(c: Context): number;
}

/** JSON routes: sign-in, contact, settings. Generous for what they carry. */
export const JSON_BODY_LIMIT = 64 * 1024;
/** Seconds of silence a body may keep before it is dropped. */
export const BODY_IDLE_MS = 30_000;

/**
 * How long a whole request body may take to arrive (ADR 022). The idle timeout
 * alone let a body sent one byte a second hold its connection, its buffers and,
 * for uploads, its byte-store reservation forever.
 * - Small bodies (JSON, the Stripe webhook: at most 512 KB): 10 s, ample for a
 *   few KB over any link, and short enough that a trickle cannot pile up.
 * - Uploads: 60 s for anything (slow starts, mobile links) plus the most bytes
 *   the plan lets one upload carry at 512 KB/s (4 Mbit/s, a modest DSL or mobile
 *   uplink: an honest client uploading its plan's maximum is not cut off),
 *   capped at 10 minutes. Free (20 × 10 MB = 200 MB): 460 s; Premium (256 MB,
 *   the request cap): 572 s.
 * Tests inject their own through `AppDeps.bodyDeadlines`.
 */
export interface BodyDeadlines {
  /** JSON and every other body that is not an upload. */
  smallMs: number;
  /** Any upload gets this much... */
  uploadBaseMs: number;
  /** ...plus the time its plan's largest upload takes at this rate... */
  uploadBytesPerSecond: number;
  /** ...but never more than this. */
  uploadMaxMs: number;
}

export const BODY_DEADLINES: BodyDeadlines = {
  smallMs: 10_000,
  uploadBaseMs: 60_000,
  uploadBytesPerSecond: 512 * 1024,
  uploadMaxMs: 600_000,
};

/** The deadline for an upload that may carry at most `allowedBytes`. */
export function uploadDeadlineMs(allowedBytes: number, d: BodyDeadlines = BODY_DEADLINES): number {
  return Math.min(d.uploadMaxMs, Math.ceil(d.uploadBaseMs + (allowedBytes / d.uploadBytesPerSecond) * 1000));
}

export const bodyTooLarge = (limit: number) =>
  new ApiError(413, `The request body is larger than ${formatBytes(limit)}, the most this route accepts`);

export const bodyStalled = () =>
  new ApiError(408, "The request body stopped arriving; send it again", { Connection: "close" });

export const bodyTooSlow = (deadlineMs: number) =>
  new ApiError(
    408,
    `The request body took too long to arrive (over ${formatDuration(deadlineMs)}); please try again`,
    { Connection: "close" },
  );

/**
 * The client's body stream failed before its end: most often the client went away mid-body (Deno
 * answers the read with BadResource), or it sent a malformed chunked body. Not the server's fault:
 * app.ts logs it as one info line, never as an unhandled error; the 400 reaches a client still there.
 */
export class BodyBrokenOff extends ApiError {
  constructor(readonly reason: unknown) {
    super(400, "The request body broke off before it was whole; send it again", { Connection: "close" });
  }
}

/** "10 s", "1.3 s", "7 min 40 s". */
export function formatDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 10) return `${Number(s.toFixed(1))} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const min = Math.floor(Math.round(s) / 60);
  const rest = Math.round(s) % 60;
  return rest === 0 ? `${min} min` : `${min} min ${rest} s`;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round(n / 1024 / 1024)} MB`;
  return n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} bytes`;
}

export interface MeterOptions {
  limit?: number;
  idleMs?: number;
  /**
   * The whole body must have arrived this many ms after the meter was made;
   * asked at the first read (so a route can decide once it knows the user).
   */
  deadlineMs?: () => number;
  /** Sees each chunk's size before the handler does; throw to refuse the body. */
  onChunk?: (bytes: number) => void;
}

/**
 * The same request with its body read through a meter: past `limit` bytes, after
 * `idleMs` without a chunk, past the deadline, or when `onChunk` throws, the
 * reader gets that error and the client's stream is cancelled (what it had
 * buffered is dropped). Timers run only while the handler waits for a chunk.
 */
export function meterRequest(request: Request, options: MeterOptions): Request {
  if (!request.body) return request;
  const source = request.body.getReader();
  const { limit = Infinity, idleMs = Infinity, deadlineMs, onChunk } = options;
  const started = performance.now();
  let deadline: number | undefined;
  let seen = 0;
  const turns = turnTaker();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        deadline ??= deadlineMs?.() ?? Infinity;
        const left = Math.max(0, started + deadline - performance.now());
        // A refusal here is an outer meter's (or its onChunk's), passed on as it is.
        const next = source.read().catch((err) => {
          throw isRefusal(err) ? err : new BodyBrokenOff(err);
        });
        const wait = Math.min(idleMs, left);
        // Did the loop go round while the chunk was awaited? Then others had their turns. (Not the time it took: on
        // a busy machine a chunk already in memory can take ms to come while nothing else runs.)
        let wentRound = false;
        const probe = setTimeout(() => wentRound = true, 0);
        const chunk = await (wait === Infinity ? next : Promise.race([
          next,
          new Promise<never>((_, reject) =>
            timer = setTimeout(() => reject(left <= idleMs ? bodyTooSlow(deadline!) : bodyStalled()), wait)
          ),
        ])).finally(() => clearTimeout(probe));
        if (wentRound) turns.waited();
        if (chunk.done) return controller.close();
        seen += chunk.value.byteLength;
        if (seen > limit) throw bodyTooLarge(limit);
        onChunk?.(chunk.value.byteLength);
        // A body already buffered arrives in one run of resolved promises: other requests get turns (ADR 052).
        await turns.turn();
        controller.enqueue(chunk.value);
      } catch (err) {
        source.cancel().catch(() => {});
        controller.error(err);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => source.cancel(reason),
  }, { highWaterMark: 0 }); // nothing is pulled (and no clock runs) before the handler reads
  return new Request(request, { body, duplex: "half" } as RequestInit);
}

/** Refuses oversized or malformed `Content-Length` up front and meters the rest. */
export function bodyGuard(limits: BodyLimits): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD" || !c.req.raw.body) return next();
    const limit = limits.limitFor(c);
    const declared = c.req.header("Content-Length");
    if (declared !== undefined) {
      if (!/^\d{1,15}$/.test(declared)) throw new ApiError(400, "The Content-Length header is not a number");
      if (Number(declared) > limit) throw bodyTooLarge(limit);
    }
    c.req.raw = meterRequest(c.req.raw, { limit, idleMs: limits.idleMs, deadlineMs: () => limits.deadlineFor(c) });
    await next();
  };
}

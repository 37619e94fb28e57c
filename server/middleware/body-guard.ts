/**
 * Bounds every request body before a handler sees it: a size limit that fits
 * the route (refused from `Content-Length` before a byte is read, or cut off
 * while a chunked body streams) and a read timeout for bodies that stall.
 * Bodies are never buffered here: the handler reads the same stream, metered.
 */
import type { Context, MiddlewareHandler } from "hono";
import { ApiError } from "../http-error.ts";

export interface BodyLimits {
  /** The most bytes this route's body may carry. */
  limitFor(c: Context): number;
  /** A body that sends nothing for this long is answered 408. */
  idleMs: number;
}

/** JSON routes: sign-in, contact, settings. Generous for what they carry. */
export const JSON_BODY_LIMIT = 64 * 1024;
/** Seconds of silence a body may keep before it is dropped. */
export const BODY_IDLE_MS = 30_000;

export const bodyTooLarge = (limit: number) =>
  new ApiError(413, `The request body is larger than ${formatBytes(limit)}, the most this route accepts`);

export const bodyStalled = () =>
  new ApiError(408, "The request body stopped arriving; send it again", { Connection: "close" });

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round(n / 1024 / 1024)} MB`;
  return n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} bytes`;
}

export interface MeterOptions {
  limit?: number;
  idleMs?: number;
  /** Sees each chunk's size before the handler does; throw to refuse the body. */
  onChunk?: (bytes: number) => void;
}

/**
 * The same request with its body read through a meter: past `limit` bytes, after
 * `idleMs` without a chunk, or when `onChunk` throws, the reader gets that error
 * and the client's stream is cancelled.
 */
export function meterRequest(request: Request, options: MeterOptions): Request {
  if (!request.body) return request;
  const source = request.body.getReader();
  const { limit = Infinity, idleMs, onChunk } = options;
  let seen = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const next = source.read();
        const chunk = idleMs === undefined ? await next : await Promise.race([
          next,
          new Promise<never>((_, reject) => timer = setTimeout(() => reject(bodyStalled()), idleMs)),
        ]);
        if (chunk.done) return controller.close();
        seen += chunk.value.byteLength;
        if (seen > limit) throw bodyTooLarge(limit);
        onChunk?.(chunk.value.byteLength);
        controller.enqueue(chunk.value);
      } catch (err) {
        source.cancel().catch(() => {});
        controller.error(err);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => source.cancel(reason),
  });
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
    c.req.raw = meterRequest(c.req.raw, { limit, idleMs: limits.idleMs });
    await next();
  };
}

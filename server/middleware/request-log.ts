import type { MiddlewareHandler } from "hono";
import type { Logger } from "../log.ts";

/** Control characters (a decoded %0d%0a among them) written as \xNN, so a path cannot forge log lines. */
export function escapeForLog(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) => {
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
  });
}

/** One info entry per request: `{"msg":"request","method","path","status","ms"}`. */
export function requestLog(log: Pick<Logger, "info">): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    await next();
    const ms = Number((performance.now() - start).toFixed(1));
    log.info("request", { method: c.req.method, path: escapeForLog(c.req.path), status: c.res.status, ms });
  };
}

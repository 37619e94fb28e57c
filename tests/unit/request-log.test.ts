import assert from "node:assert/strict";
import { Hono } from "hono";
import { escapeForLog, requestLog } from "../../server/middleware/request-log.ts";
import { createLogger } from "../../server/log.ts";

Deno.test("[regression] a path with %0d%0a cannot forge a second log line", async () => {
  const lines: string[] = [];
  const log = createLogger("info", (line) => lines.push(line));
  const app = new Hono().use(requestLog(log)).get("*", (c) => c.text("ok"));
  await app.request("/x%0d%0aGET%20/admin%20200%201ms");
  assert.equal(lines.length, 1);
  assert.doesNotMatch(lines[0]!, /[\r\n]/);
  const entry = JSON.parse(lines[0]!);
  assert.equal(entry.msg, "request");
  assert.equal(entry.method, "GET");
  assert.equal(entry.path, "/x\\x0d\\x0aGET /admin 200 1ms");
  assert.equal(entry.status, 200);
  assert.equal(typeof entry.ms, "number");
});

Deno.test("escapeForLog writes control and line-separator characters as escapes", () => {
  assert.equal(escapeForLog("a\u0000b\u007f\u2028"), "a\\x00b\\x7f\\u2028");
  assert.equal(escapeForLog("/plain/path"), "/plain/path");
});

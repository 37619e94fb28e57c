import assert from "node:assert/strict";
import { Hono } from "hono";
import { escapeForLog, requestLog } from "../../server/middleware/request-log.ts";

Deno.test("[regression] a path with %0d%0a cannot forge a second log line", async () => {
  const lines: string[] = [];
  const app = new Hono().use(requestLog((line) => lines.push(line))).get("*", (c) => c.text("ok"));
  await app.request("/x%0d%0aGET%20/admin%20200%201ms");
  assert.equal(lines.length, 1);
  assert.doesNotMatch(lines[0]!, /[\r\n]/);
  assert.match(lines[0]!, /^GET \/x\\x0d\\x0aGET \/admin 200 1ms 200 /);
});

Deno.test("escapeForLog writes control and line-separator characters as escapes", () => {
  assert.equal(escapeForLog("a\u0000b\u007f\u2028"), "a\\x00b\\x7f\\u2028");
  assert.equal(escapeForLog("/plain/path"), "/plain/path");
});

import assert from "node:assert/strict";
import { createLogger, type LogLevel } from "../../server/log.ts";
import { EnvError, parseEnv } from "../../server/env.ts";

function captured(level: LogLevel) {
  const lines: { line: string; level: LogLevel }[] = [];
  return { lines, log: createLogger(level, (line, at) => lines.push({ line, level: at })) };
}

Deno.test("a logger writes one JSON line per entry at its level and above, level and msg first", () => {
  const { lines, log } = captured("info");
  log.debug("job run", { event: "start" });
  log.info("started", { port: 8000 });
  log.warn("slow", { ms: 1200 });
  log.error("failed", { err: new TypeError("boom", { cause: new RangeError("deeper") }) });
  assert.deepEqual(lines.map((l) => l.level), ["info", "warn", "error"], "debug is below info");
  assert.equal(lines[0]!.line, '{"level":"info","msg":"started","port":8000}');
  const { err } = JSON.parse(lines[2]!.line);
  assert.equal(err.name, "TypeError");
  assert.equal(err.message, "boom");
  assert.match(err.stack, /^TypeError: boom\n\s+at /, "an error keeps its stack, on the one line");
  assert.equal(err.cause.message, "deeper", "and its cause");
});

Deno.test("at debug, a job run line carries its event, job, instance and time; fields cannot overwrite level or msg", () => {
  const { lines, log } = captured("debug");
  log.debug("job run", { event: "end", job: "j1", instance: "i1", at: 1234, level: "error", msg: "forged" });
  assert.deepEqual(JSON.parse(lines[0]!.line), {
    level: "debug",
    msg: "job run",
    event: "end",
    job: "j1",
    instance: "i1",
    at: 1234,
  });
});

Deno.test("LOG_LEVEL defaults to info and takes only debug, info, warn or error", () => {
  assert.equal(parseEnv({}).LOG_LEVEL, "info");
  assert.equal(parseEnv({ LOG_LEVEL: "debug" }).LOG_LEVEL, "debug");
  assert.throws(() => parseEnv({ LOG_LEVEL: "verbose" }), (err: unknown) => {
    assert.ok(err instanceof EnvError);
    assert.match(err.message, /LOG_LEVEL/);
    return true;
  });
});

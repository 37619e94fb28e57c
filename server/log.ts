/**
 * Leveled, structured logging: one JSON line per entry, `{"level","msg",...fields}`, on stdout
 * (warn and error on stderr). Entries below the logger's level (LOG_LEVEL, default info) are dropped.
 */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = typeof LOG_LEVELS[number];

/** Values written as JSON; an Error as its name, message, stack and cause, a bigint as its digits. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

const WRITERS: Record<LogLevel, (line: string) => void> = {
  debug: (line) => console.log(line),
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

/** A logger writing entries at `level` and above; `write` receives each line (default: the console). */
export function createLogger(level: LogLevel, write?: (line: string, level: LogLevel) => void): Logger {
  const min = LOG_LEVELS.indexOf(level);
  const entry = (at: LogLevel) => (msg: string, fields: LogFields = {}) => {
    if (LOG_LEVELS.indexOf(at) < min) return;
    // level and msg lead the line, and fields cannot overwrite them.
    const body: LogFields = { level: at, msg, ...fields };
    body.level = at;
    body.msg = msg;
    const line = JSON.stringify(body, jsonValue);
    if (write) write(line, at);
    else WRITERS[at](line);
  };
  return { debug: entry("debug"), info: entry("info"), warn: entry("warn"), error: entry("error") };
}

/**
 * The process's logger, for code that is handed none (main, billing, the scheduler's and byte
 * store's background failures); `setLogLevel` gives it LOG_LEVEL at start (default info).
 */
let processLogger = createLogger("info");
export const log: Logger = {
  debug: (msg, fields) => processLogger.debug(msg, fields),
  info: (msg, fields) => processLogger.info(msg, fields),
  warn: (msg, fields) => processLogger.warn(msg, fields),
  error: (msg, fields) => processLogger.error(msg, fields),
};

export function setLogLevel(level: LogLevel): void {
  processLogger = createLogger(level);
}

function jsonValue(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const { name, message, stack, cause } = value;
    return cause === undefined ? { name, message, stack } : { name, message, stack, cause };
  }
  return typeof value === "bigint" ? String(value) : value;
}

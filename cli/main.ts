/**
 * The SqueezeJPEG CLI (issue 23): `deno task cli compress PATH... --out DIR`, or the binary
 * `deno task compile:cli` builds. Exit codes: 0 all done, 1 a file failed or the run stopped (refused
 * key, unreachable server), 2 a usage error, 130 interrupted (SIGINT), 143 terminated (SIGTERM).
 */
import { CliError, ENV_KEY, ENV_URL, parseCommand, SHORT_USAGE, USAGE, UsageError } from "./args.ts";
import { runCompress } from "./compress-command.ts";
import type { RetryPolicy } from "./client.ts";
import { removeTempFilesSync } from "./output-file.ts";
import type { Write } from "./report.ts";
import { escapeControls } from "./terminal-text.ts";

export interface MainIO {
  stdout: Write;
  stderr: Write;
  env: Record<string, string | undefined>;
  /** stderr is a terminal: draw the progress bar. */
  progress: boolean;
  columns?: number;
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
}

/** Runs the CLI on `argv`; resolves to the exit code. */
export async function main(argv: string[], io: MainIO): Promise<number> {
  try {
    const command = parseCommand(argv, io.env);
    if (command.kind === "help") {
      io.stdout(USAGE);
      return 0;
    }
    return await runCompress(command.options, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`squeeze: ${escapeControls(err.message)}\n${SHORT_USAGE}`);
      return err.exitCode;
    }
    if (err instanceof CliError) {
      io.stderr(`squeeze: ${escapeControls(err.message)}\n`);
      return err.exitCode;
    }
    throw err;
  }
}

/** A writer that writes all of `text` to `file` before returning (pipes may take it in parts). */
function writerFor(file: { writeSync(p: Uint8Array): number }): Write {
  const encoder = new TextEncoder();
  return (text) => {
    const bytes = encoder.encode(text);
    for (let offset = 0; offset < bytes.length;) offset += file.writeSync(bytes.subarray(offset));
  };
}

/** Exit codes of a run stopped by a signal: 128 + its number, as shells report them. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT;

if (import.meta.main) {
  const interrupt = new AbortController();
  let stoppedBy: StopSignal | null = null;
  // The first signal stops the run as Ctrl-C always did: requests end, and their temporary files go as their writes
  // fail. A second one does not wait for that: the temporary files are removed here and the process ends.
  const onSignal = (signal: StopSignal) => () => {
    if (stoppedBy !== null) {
      removeTempFilesSync();
      Deno.exit(SIGNAL_EXIT[stoppedBy]);
    }
    stoppedBy = signal;
    interrupt.abort(new Error(signal === "SIGINT" ? "Interrupted" : "Terminated"));
  };
  // Windows delivers no SIGTERM to listen for.
  const signals: StopSignal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  const listeners = signals.map((signal) => [signal, onSignal(signal)] as const);
  for (const [signal, listener] of listeners) Deno.addSignalListener(signal, listener);
  const progress = Deno.stderr.isTerminal();
  let columns: number | undefined;
  try {
    columns = progress ? Deno.consoleSize().columns : undefined;
  } catch { /* not a console */ }
  const code = await main(Deno.args, {
    stdout: writerFor(Deno.stdout),
    stderr: writerFor(Deno.stderr),
    env: { [ENV_KEY]: Deno.env.get(ENV_KEY), [ENV_URL]: Deno.env.get(ENV_URL) },
    progress,
    columns,
    signal: interrupt.signal,
  });
  for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  Deno.exit(stoppedBy === null ? code : SIGNAL_EXIT[stoppedBy]);
}

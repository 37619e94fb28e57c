/**
 * The SqueezeJPEG CLI (issue 23): `deno task cli compress PATH... --out DIR`, or the binary
 * `deno task compile:cli` builds. Exit codes: 0 all done, 1 a file failed or the run stopped (refused
 * key, unreachable server), 2 a usage error, 130 interrupted.
 */
import { CliError, ENV_KEY, ENV_URL, parseCommand, SHORT_USAGE, USAGE, UsageError } from "./args.ts";
import { runCompress } from "./compress-command.ts";
import type { RetryPolicy } from "./client.ts";
import type { Write } from "./report.ts";

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
      io.stderr(`squeeze: ${err.message}\n${SHORT_USAGE}`);
      return err.exitCode;
    }
    if (err instanceof CliError) {
      io.stderr(`squeeze: ${err.message}\n`);
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

if (import.meta.main) {
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort(new Error("Interrupted"));
  Deno.addSignalListener("SIGINT", onInterrupt);
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
  Deno.removeSignalListener("SIGINT", onInterrupt);
  Deno.exit(interrupt.signal.aborted ? 130 : code);
}

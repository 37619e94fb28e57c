/**
 * A console.error nobody expected fails the test that logged it. `deno task test` preloads this module into
 * every test module (`deno test --preload`); a test file that uses `expectConsoleError` imports it too, so a
 * lone `deno test tests/x.test.ts` checks at least that file.
 *
 * Lines are collected and checked after each test (a line logged between two tests fails the later one, one
 * logged after a module's last test fails the module), rather than thrown where they are logged: code that
 * logs in a catch block must not be given a second error. Only this process's console: child servers write
 * to their own stderr, and workers have a console of their own.
 */
import { waitFor } from "./wait-for.ts";

interface State {
  /** Lines nobody expected, since the last check. */
  unexpected: string[];
  /** While `expectConsoleError` runs, where its lines go. */
  expecting: string[] | null;
}

const STATE = Symbol.for("tests/setup/fail-on-console-error");
const slot = globalThis as unknown as Record<symbol, State | undefined>;
const state: State = slot[STATE] ??= install();

function install(): State {
  const s: State = { unexpected: [], expecting: null };
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const line = args.map((a) => (typeof a === "string" ? a : Deno.inspect(a))).join(" ");
    if (s.expecting) return void s.expecting.push(line);
    s.unexpected.push(line);
    print(...args);
  };
  const check = (when: string) => {
    const lines = s.unexpected.splice(0);
    if (lines.length === 0) return;
    throw new Error(
      `Unexpected console.error ${when} (wrap the code in expectConsoleError if the error is expected):\n` +
        lines.join("\n"),
    );
  };
  Deno.test.afterEach(() => check("during this test (or after the previous one ended)"));
  Deno.test.afterAll(() => check("after this module's last test"));
  return s;
}

/**
 * Runs `fn`, whose behaviour includes logging an error: every console.error line logged meanwhile must match
 * `pattern`, and at least one must (it is waited for up to `timeoutMs` after `fn` settles, as code that fails
 * in the background logs when it gets there). Resolves to `fn`'s result and the lines, which are not printed.
 */
export async function expectConsoleError<T>(
  pattern: RegExp,
  fn: () => T | Promise<T>,
  { timeoutMs = 5_000 }: { timeoutMs?: number } = {},
): Promise<{ result: T; lines: string[] }> {
  if (state.expecting) throw new Error("expectConsoleError calls do not nest");
  const lines: string[] = [];
  state.expecting = lines;
  try {
    const result = await fn();
    await waitFor(() => lines.length > 0, { timeoutMs, message: `a console.error line matching ${pattern}` });
    const stray = lines.filter((line) => !pattern.test(line));
    if (stray.length) throw new Error(`console.error lines that do not match ${pattern}:\n${stray.join("\n")}`);
    return { result, lines };
  } finally {
    state.expecting = null;
  }
}

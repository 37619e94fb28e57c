/**
 * Runs a module in a fresh Deno process and returns the JSON it printed last: for tests of the process's own
 * memory (RSS), which the test runner's process, shaped by every test before (malloc's thresholds, its arenas'
 * holes), cannot measure reliably.
 */
export async function inFreshProcess<T>(script: URL, args: string[] = []): Promise<T> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script.href, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success) throw new Error(`${script.pathname} failed: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(text.split("\n").at(-1)!) as T;
}

/** The CLI run in this process (its output collected), and the temporary folders the command tests work in. */
import { join } from "node:path";
import { main } from "../../cli/main.ts";
import { KEY } from "./fake-api.ts";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export async function run(argv: string[], env: Record<string, string> = { SQUEEZE_API_KEY: KEY }): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env,
    progress: false,
    retry: { backoffMs: 10 },
  });
  return { code, stdout, stderr };
}

export async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cli-cmd-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every file under `dir`, as sorted paths relative to it (temporary files included). */
export async function filesUnder(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, rel))) {
    const path = rel ? join(rel, e.name) : e.name;
    if (e.isDirectory) out.push(...await filesUnder(dir, path));
    else out.push(path);
  }
  return out.sort();
}

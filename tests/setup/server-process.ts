/** Starts the real server as a child process on a fresh database file and a free port. */
import { join } from "node:path";

const REPO = new URL("../../", import.meta.url).pathname;

export interface RunningServer {
  url: string;
  /** The server's process id (for reading its memory from /proc). */
  pid: number;
  /** The database file, for tests and benches that set up state directly. */
  databaseUrl: string;
  stop(): Promise<void>;
}

export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dir = await Deno.makeTempDir({ prefix: "e2e-" });
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "server/main.ts"],
    cwd: REPO,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${join(dir, "app.db")}`,
      LOG_REQUESTS: "false",
      // Browser tests sign up many users from 127.0.0.1.
      REGISTRATIONS_PER_HOUR: "1000",
      ...env,
    },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  // Drain stderr as it comes (a full pipe would block the server), keeping the tail for errors.
  let stderrTail = "";
  const drained = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (stderrTail = (stderrTail + chunk).slice(-8192)) }),
  ).catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForOk(`${url}/healthz`);
  } catch {
    child.kill();
    await child.status;
    throw new Error(`The server did not start: ${stderrTail}`);
  }
  return {
    url,
    pid: child.pid,
    databaseUrl: `file:${join(dir, "app.db")}`,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await drained;
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Resolves once `url` answers 2xx; throws after `timeoutMs`. */
export async function waitForOk(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (res.ok) return;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

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

function freePort(): number {
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
      ...env,
    },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/healthz`);
      await res.body?.cancel();
      if (res.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`The server did not start: ${await new Response(child.stderr).text()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid,
    databaseUrl: `file:${join(dir, "app.db")}`,
    async stop() {
      child.kill("SIGTERM");
      await child.stderr.cancel();
      await child.status;
      await Deno.remove(dir, { recursive: true });
    },
  };
}

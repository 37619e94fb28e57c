/** Starts the real server as a child process on a fresh database file and a free port. */
import { join } from "node:path";
import { keepTail } from "./output-tail.ts";

const REPO = new URL("../../", import.meta.url).pathname;

export interface RunningServer {
  url: string;
  /** The server's process id (for reading its memory from /proc). */
  pid: number;
  /** The database file, for tests and benches that set up state directly. */
  databaseUrl: string;
  /** Lines the server printed on stdout so far. */
  stdout: string[];
  /** The last 8 KB the server printed on stderr so far (warnings and errors). */
  stderr(): string;
  /** SIGTERM (drains) and waits; removes the temp folder. */
  stop(): Promise<void>;
  /** SIGKILL: the process dies at once, holding whatever it held. */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** Permission flags for `deno run` (default `-A`), e.g. `["-A", "--deny-ffi", "--deny-write"]`. */
  denoFlags?: string[];
}

export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

export async function startServer(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<RunningServer> {
  const dir = await Deno.makeTempDir({ prefix: "e2e-" });
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(opts.denoFlags ?? ["-A"]), "server/main.ts"],
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
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout: string[] = [];
  let partial = "";
  const stdoutDone = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({
      write(chunk) {
        const lines = (partial + chunk).split("\n");
        partial = lines.pop()!;
        stdout.push(...lines);
      },
    }),
  ).catch(() => {});
  const stderr = keepTail(child.stderr);
  const url = `http://127.0.0.1:${port}`;
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  try {
    await Promise.race([
      waitForOk(`${url}/healthz`),
      status.then((s) => Promise.reject(new Error(`exit ${s.code}`))),
    ]);
  } catch (err) {
    if (!exited) child.kill();
    await status;
    await stderr.done;
    throw new Error(`The server did not start (${(err as Error).message}): ${stderr.text()}`);
  }
  const end = async (signal: Deno.Signal) => {
    try {
      child.kill(signal);
    } catch { /* already gone */ }
    await child.status;
    await stderr.done;
    await stdoutDone;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  return {
    url,
    pid: child.pid,
    databaseUrl: `file:${join(dir, "app.db")}`,
    stdout,
    stderr: () => stderr.text(),
    stop: () => end("SIGTERM"),
    kill: () => end("SIGKILL"),
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

/** A job run starting or ending on an instance: its `job run` debug log line (server/log.ts). */
export interface JobRunEvent {
  event: "start" | "end";
  job: string;
  instance: string;
  /** ms since the epoch */
  at: number;
}

/** The `job run` lines a server logged so far, in order (it runs with LOG_LEVEL=debug). */
export function jobRunEvents(server: RunningServer): JobRunEvent[] {
  const events: JobRunEvent[] = [];
  for (const line of server.stdout) {
    if (!line.startsWith("{")) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // another line that happens to start with a brace
    }
    if (entry.level !== "debug" || entry.msg !== "job run") continue;
    const { event, job, instance, at } = entry;
    if ((event !== "start" && event !== "end") || typeof job !== "string" || typeof instance !== "string") {
      throw new Error(`A malformed job run line: ${line}`);
    }
    if (typeof at !== "number") throw new Error(`A job run line without its time: ${line}`);
    events.push({ event, job, instance, at });
  }
  return events;
}

/** Job ids an instance logged a `job run` start for and no end yet (LOG_LEVEL=debug). */
export function runningOn(server: RunningServer): string[] {
  const open = new Set<string>();
  for (const { event, job } of jobRunEvents(server)) {
    if (event === "start") open.add(job);
    else open.delete(job);
  }
  return [...open];
}

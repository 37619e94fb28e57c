/**
 * Browser tests drive Debian's Chromium (playwright-core) against a real server
 * process on a fresh database file and a free port.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { join } from "node:path";

export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
const REPO = new URL("../../", import.meta.url).pathname;

function chromiumPresent(): boolean {
  try {
    Deno.statSync(CHROMIUM_PATH);
    return true;
  } catch {
    return false;
  }
}

/** Under CI a missing browser is a failure, elsewhere the browser tests are skipped. */
export const browserMissing = !chromiumPresent();
if (browserMissing && Deno.env.get("CI") === "true") {
  throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: .ci/run installs it with apt`);
}

export interface RunningServer {
  url: string;
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
    async stop() {
      child.kill("SIGTERM");
      await child.stderr.cancel();
      await child.status;
      await Deno.remove(dir, { recursive: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** One server and one browser for a test file; each test gets a fresh page. */
export interface E2eContext {
  server: RunningServer;
  newPage(): Promise<Page>;
  /** A named step: each reads as a sentence in the report. */
  step(name: string, fn: () => Promise<void>): Promise<boolean>;
}

export function e2eSuite(name: string, fn: (ctx: E2eContext) => Promise<void>) {
  Deno.test({
    name,
    ignore: browserMissing,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const server = await startServer();
      const browser = await launchBrowser();
      try {
        await fn({
          server,
          newPage: async () => {
            const context = await browser.newContext({ baseURL: server.url });
            return context.newPage();
          },
          step: (stepName, stepFn) =>
            t.step({ name: stepName, fn: stepFn, sanitizeOps: false, sanitizeResources: false }),
        });
      } finally {
        await browser.close();
        await server.stop();
      }
    },
  });
}

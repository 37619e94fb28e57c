/**
 * Browser tests drive Debian's Chromium (playwright-core) against a real server
 * process on a fresh database file and a free port.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { type RunningServer, startServer } from "../setup/server-process.ts";

export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

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

/** `env` adds to the server's environment (e.g. a STORE_URL). */
export function e2eSuite(name: string, fn: (ctx: E2eContext) => Promise<void>, env: Record<string, string> = {}) {
  Deno.test({
    name,
    ignore: browserMissing,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const server = await startServer(env);
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

/** Console errors and uncaught exceptions of a page (hydration mismatches, CSP violations, failed requests). */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  return errors;
}

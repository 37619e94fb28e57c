/**
 * `deno task lighthouse`: Lighthouse (npm) with Debian's Chromium against a fresh server on
 * the built site, with Lighthouse's mobile defaults. Prints performance, accessibility,
 * best-practices and SEO scores and CLS for /, /articles, /article7 and /about.
 * Targets (issue 7): performance, accessibility, best practices ≥ 95, SEO 100, CLS < 0.05.
 * Not part of `deno task test`: scores vary with machine load. Exit code 1 when a target is missed.
 * LIGHTHOUSE_REPORT_DIR=dir keeps each full report as JSON; arguments replace the list of paths.
 */
import lighthouse from "lighthouse";
import { join } from "node:path";
import { freePort, startServer, waitForOk } from "../tests/setup/server-process.ts";

const REPO = new URL("../", import.meta.url).pathname;
const CHROMIUM = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
const PATHS = Deno.args.length ? Deno.args : ["/", "/articles", "/article7", "/about"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const TARGETS: Record<(typeof CATEGORIES)[number], number> = {
  performance: 95,
  accessibility: 95,
  "best-practices": 95,
  seo: 100,
};
const MAX_CLS = 0.05;

async function ensureBuilt() {
  try {
    await Deno.stat(join(REPO, "web/dist/shell.html"));
  } catch {
    const { success } = await new Deno.Command(Deno.execPath(), { args: ["task", "build"], cwd: REPO }).spawn().status;
    if (!success) throw new Error("The web build failed");
  }
}

async function main() {
  await ensureBuilt();
  const dir = await Deno.makeTempDir({ prefix: "lighthouse-" });
  const server = await startServer();
  const debugPort = freePort();
  const chrome = new Deno.Command(CHROMIUM, {
    args: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--remote-debugging-port=${debugPort}`,
      `--user-data-dir=${join(dir, "chrome")}`,
      "about:blank",
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  let failed = false;
  try {
    const base = server.url;
    await waitForOk(`http://127.0.0.1:${debugPort}/json/version`);
    console.log(`Lighthouse ${"(mobile defaults)"} on ${base}\n`);
    console.log("path        perf  a11y  best  seo   CLS");
    for (const path of PATHS) {
      const result = await lighthouse(`${base}${path}`, {
        port: debugPort,
        output: "json",
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
      const { lhr } = result;
      const reportDir = Deno.env.get("LIGHTHOUSE_REPORT_DIR");
      if (reportDir) {
        const name = path === "/" ? "home" : path.slice(1).replaceAll("/", "-");
        await Deno.writeTextFile(join(reportDir, `${name}.json`), JSON.stringify(lhr, null, 1));
      }
      const scores = CATEGORIES.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100));
      const cls = lhr.audits["cumulative-layout-shift"]?.numericValue ?? NaN;
      console.log(
        `${path.padEnd(11)} ${scores.map((s) => String(s).padEnd(5)).join(" ")} ${cls.toFixed(3)}`,
      );
      CATEGORIES.forEach((c, i) => {
        if (scores[i]! < TARGETS[c]) failed = true;
      });
      if (!(cls < MAX_CLS)) failed = true;
      // Say why a category missed its target: the failing audits that cost points.
      for (const c of CATEGORIES) {
        const category = lhr.categories[c];
        if (!category || Math.round((category.score ?? 0) * 100) >= TARGETS[c]) continue;
        for (const ref of category.auditRefs) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 0.9) {
            console.log(`    ${c}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
          }
        }
      }
    }
  } finally {
    chrome.kill("SIGTERM");
    await Promise.allSettled([chrome.status, server.stop()]);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  if (failed) {
    console.log("\nSome targets were missed (performance, accessibility, best practices ≥ 95, SEO 100, CLS < 0.05)");
    Deno.exit(1);
  }
}

await main();

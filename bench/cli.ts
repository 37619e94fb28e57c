/**
 * The CLI's throughput (issue 23): `cli/main.ts compress` as a subprocess on a folder of corpus photos
 * against a fresh server process, with --concurrency 1 and 4 (files/s, the process's start included).
 * Runnable alone: `BENCH_PHOTOS=6 deno run -A bench/cli.ts`.
 */
import { join } from "node:path";
import { startServer } from "../tests/setup/server-process.ts";
import type { CorpusImage } from "./corpus.ts";
import { createApiKey, registerPremium } from "./http.ts";
import { figure } from "./report.ts";

const REPO = new URL("../", import.meta.url).pathname;
const CONCURRENCIES = [1, 4] as const;

/** Seconds one `compress` run of `dir` took; throws unless every file was compressed. */
async function timeRun(dir: string, out: string, concurrency: number, env: Record<string, string>): Promise<number> {
  const t = performance.now();
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "cli/main.ts", "compress", dir, "--out", out, "--json", "--concurrency", String(concurrency)],
    cwd: REPO,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - t) / 1000;
  if (!run.success) throw new Error(`cli --concurrency ${concurrency}: ${new TextDecoder().decode(run.stderr)}`);
  return seconds;
}

export async function cliThroughput(corpus: CorpusImage[], workers: number): Promise<void> {
  const server = await startServer({ WORKERS: String(workers) });
  const dir = await Deno.makeTempDir({ prefix: "bench-cli-" });
  try {
    // Premium: no daily limit, so every run compresses every photo.
    const key = await createApiKey(server, await registerPremium(server, "bench-cli"));
    const photos = join(dir, "photos");
    await Deno.mkdir(photos);
    for (const image of corpus) await Deno.writeFile(join(photos, image.name), image.bytes);
    const env = { SQUEEZE_API_KEY: key, SQUEEZE_API_URL: server.url };

    const seconds: number[] = [];
    for (const concurrency of CONCURRENCIES) {
      const s = await timeRun(photos, join(dir, `out-${concurrency}`), concurrency, env);
      seconds.push(s);
      figure(`cli_throughput_concurrency_${concurrency}_${workers}_workers`, corpus.length / s, "files/s");
    }
    figure(`cli_concurrency_4_vs_1_speedup`, seconds[0]! / seconds[1]!, "x");
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const { loadCorpus } = await import("./corpus.ts");
  await cliThroughput(await loadCorpus(), 2);
}

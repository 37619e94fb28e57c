/**
 * The developer API against the web upload path (issue 23): the same photos, one at a time, on one
 * server process, alternating the order per photo so drift hits both alike. The web path is what the
 * browser does: POST /api/compress, poll GET /api/jobs (every 100 ms) until completed, download. The
 * API path is one synchronous POST /api/v1/compress. Both paths answer before the job's score is measured
 * (deferred to an idle worker): each run waits for that score before the next starts, so neither path's
 * timing carries the other's measuring. Target: the API no more than 5% slower.
 * Runnable alone: `BENCH_PHOTOS=6 deno run -A bench/api.ts`.
 */
import { V1 } from "../contract/api-keys.ts";
import { type RunningServer, startServer } from "../tests/setup/server-process.ts";
import type { CorpusImage } from "./corpus.ts";
import { createApiKey, registerPremium } from "./http.ts";
import { figure, median } from "./report.ts";

/** Within the per-session poll budget (a burst of 40, then 10/s), which a long image would exhaust at 50 ms. */
const POLL_MS = 100;

async function viaWeb(server: RunningServer, cookie: string, image: CorpusImage): Promise<number> {
  const t = performance.now();
  const form = new FormData();
  form.append("images", new File([image.bytes as Uint8Array<ArrayBuffer>], image.name, { type: "image/jpeg" }));
  const res = await fetch(`${server.url}/api/compress`, { method: "POST", headers: { Cookie: cookie }, body: form });
  if (res.status !== 201) throw new Error(`compress: ${res.status} ${await res.text()}`);
  const id = (await res.json() as { jobs: { id: string }[] }).jobs[0]!.id;
  for (;;) {
    const poll = await fetch(`${server.url}/api/jobs`, { headers: { Cookie: cookie } });
    const { jobs } = poll.ok ? await poll.json() as { jobs: { id: string; status: string }[] } : { jobs: [] };
    if (!poll.ok) await poll.body?.cancel();
    const status = jobs.find((j) => j.id === id)?.status;
    if (status === "completed") break;
    if (status === "error") throw new Error(`${image.name} failed on the web path`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  await (await fetch(`${server.url}/api/download/${id}`, { headers: { Cookie: cookie } })).arrayBuffer();
  return performance.now() - t;
}

/** Waits (untimed) until no job of the account still has its score to measure. */
async function scoresSettled(server: RunningServer, cookie: string): Promise<void> {
  for (;;) {
    const poll = await fetch(`${server.url}/api/jobs`, { headers: { Cookie: cookie } });
    const { jobs } = poll.ok ? await poll.json() as { jobs: { scorePending: boolean }[] } : { jobs: null };
    if (!poll.ok) await poll.body?.cancel();
    if (jobs && !jobs.some((j) => j.scorePending)) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function viaApi(server: RunningServer, key: string, image: CorpusImage): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${server.url}${V1.compress}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "image/jpeg" },
    body: image.bytes as Uint8Array<ArrayBuffer>,
  });
  if (res.status !== 200) throw new Error(`v1 compress ${image.name}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - t;
}

export async function apiVsWeb(corpus: CorpusImage[], workers: number): Promise<void> {
  const server = await startServer({ WORKERS: String(workers) });
  try {
    // Premium: no daily limit, so every photo goes through both paths.
    const cookie = await registerPremium(server, "bench-api");
    const key = await createApiKey(server, cookie);

    await viaApi(server, key, corpus[0]!); // warm both paths' code before timing
    await viaWeb(server, cookie, corpus[0]!);
    await scoresSettled(server, cookie);
    const web: number[] = [], api: number[] = [];
    for (const [i, image] of corpus.entries()) {
      const runs = [
        async () => web.push(await viaWeb(server, cookie, image)),
        async () => api.push(await viaApi(server, key, image)),
      ];
      for (const run of i % 2 === 0 ? runs : runs.reverse()) {
        await run();
        await scoresSettled(server, cookie);
      }
    }
    console.log(corpus.map((c, i) => `# ${c.name}: api ${Math.round(api[i]!)} web ${Math.round(web[i]!)}`).join("\n"));
    const total = (ms: number[]) => ms.reduce((a, b) => a + b, 0);
    figure("api_per_image_median", median(api), "ms");
    figure("web_path_per_image_median", median(web), "ms");
    figure("api_vs_web_path_time", total(api) / total(web), "ratio, summed over the photos (target <= 1.05)");
  } finally {
    await server.stop();
  }
}

if (import.meta.main) {
  const { loadCorpus } = await import("./corpus.ts");
  await apiVsWeb(await loadCorpus(), 2);
}

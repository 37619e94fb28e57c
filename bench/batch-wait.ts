/**
 * Issue 31 items 3 and 5, measured as users wait and as reviewers measure: the run's photos as ONE upload by a
 * Premium user with maxConcurrent 4 on a 2-worker server, from the upload's start to the last job completed, on
 * the fixed path and on auto; and the server's VmHWM over a mixed run of batches back to back.
 */
import { type SavedSettings, settingsToFields } from "../contract/settings.ts";
import { type RunningServer, startServer } from "../tests/setup/server-process.ts";
import type { CorpusImage } from "./corpus.ts";
import { type Client, peakRssOf, premiumClient, uploadAll, UploadRefused, waitAllSettled } from "./http.ts";
import { figure } from "./report.ts";

const WORKERS = 2;
/** Fixed-then-auto pairs for `batch_auto_vs_fixed_wall` (`BENCH_BATCH_ROUNDS`, default 2). */
const BATCH_ROUNDS = Math.max(1, Number(Deno.env.get("BENCH_BATCH_ROUNDS") ?? 2) || 2);
const MAX_CONCURRENT = 4;
const AUTO = { target: { kind: "auto" } } as const satisfies Partial<SavedSettings>;

interface BatchRun {
  seconds: number;
  completed: number;
  failed: string[];
}

/**
 * One upload of `images` with `settings` over the user's defaults: seconds from the upload's start until every
 * job ended. Polls GET /api/jobs like the web app, but 5 times a second (it: once) so the figure is the
 * server's, within 0.2 s. A refused upload throws UploadRefused.
 */
async function timedBatch(
  server: RunningServer,
  client: Client,
  images: CorpusImage[],
  settings: Partial<SavedSettings>,
): Promise<BatchRun> {
  const fields = settingsToFields({ ...settings, maxConcurrent: MAX_CONCURRENT });
  const t = performance.now();
  const jobs = await waitAllSettled(client, await uploadAll(server, client, images, fields));
  const seconds = (performance.now() - t) / 1000;
  const failed = jobs.filter((j) => j.status === "error").map((j) => j.errorMessage ?? "(no message)");
  return { seconds, completed: jobs.length - failed.length, failed };
}

/** `work` on a fresh 2-worker server (temporary database, memory store), always stopped; killed on an error. */
async function onFreshServer<T>(work: (server: RunningServer, client: Client) => Promise<T>): Promise<T> {
  const server = await startServer({ WORKERS: String(WORKERS) });
  let done = false;
  try {
    const result = await work(server, await premiumClient(server, "bench-batch"));
    done = true;
    return result;
  } finally {
    await (done ? server.stop() : server.kill());
  }
}

const outcome = (run: BatchRun, total: number) => `${run.completed}/${total} completed`;
const printFailures = (run: BatchRun) => run.failed.forEach((message) => console.log(`  failed: ${message}`));

// The mixed run (item 5): what a user may send in a day, on the default settings otherwise.
const MIXED: Array<{ name: string; shown: string; settings: Partial<SavedSettings> }> = [
  { name: "fixed", shown: "fixed", settings: {} },
  { name: "fixed_again", shown: "fixed", settings: {} },
  { name: "auto", shown: "auto", settings: AUTO },
  { name: "jpegli", shown: "jpegli", settings: { encoder: "jpegli" } },
  { name: "avif_auto", shown: "avif", settings: { format: "avif", ...AUTO } },
  { name: "webp", shown: "webp", settings: { format: "webp" } },
  { name: "jxl", shown: "jxl", settings: { format: "jxl" } },
];

export async function batchWaitBench(corpus: CorpusImage[]) {
  const n = corpus.length;
  const megapixels = corpus.reduce((sum, image) => sum + image.megapixels, 0);
  const batch = `${n} photos, ${megapixels.toFixed(0)} MP`;

  // Item 3: the fixed batch, then auto, each on a fresh server so neither inherits the other's warm heaps or store
  // (and each peak is its own); BATCH_ROUNDS pairs, interleaved, since one pair's ratio moved by a third between
  // runs of one engine on this shared machine (2.48-3.36x on the validation set): the line is the summed walls' ratio.
  const wall = { fixed: 0, auto: 0 };
  const ratios: string[] = [];
  for (let round = 1; round <= BATCH_ROUNDS; round++) {
    const pair = { fixed: 0, auto: 0 };
    for (const [name, settings] of [["fixed", {}], ["auto", AUTO]] as const) {
      const { run, peak } = await onFreshServer(async (server, client) => {
        const run = await timedBatch(server, client, corpus, settings);
        return { run, peak: await peakRssOf(server.pid) };
      });
      pair[name] = run.seconds;
      wall[name] += run.seconds;
      const line = BATCH_ROUNDS > 1 ? `batch_${name}_wall_s_round_${round}` : `batch_${name}_wall_s`;
      figure(line, run.seconds, `s (${batch}; ${outcome(run, n)}; peak ${peak.toFixed(0)} MB)`);
      printFailures(run);
    }
    ratios.push((pair.auto / pair.fixed).toFixed(2));
  }
  figure(
    "batch_auto_vs_fixed_wall",
    wall.auto / wall.fixed,
    `x (target <= 2; upload to last completed, ${n} photos, maxConcurrent ${MAX_CONCURRENT}, ${WORKERS} workers; ${
      BATCH_ROUNDS > 1 ? `rounds ${ratios.join(", ")}` : "one round"
    })`,
  );

  // Item 5: one server for the whole run, as reviewers run it; VmHWM is the process's, so it counts every worker.
  await onFreshServer(async (server, client) => {
    const ran: string[] = [];
    for (const step of MIXED) {
      try {
        const run = await timedBatch(server, client, corpus, step.settings);
        ran.push(step.shown);
        const peak = await peakRssOf(server.pid);
        figure(
          `mixed_run_${step.name}_wall_s`,
          run.seconds,
          `s (${outcome(run, n)}; peak so far ${peak.toFixed(0)} MB)`,
        );
        printFailures(run);
      } catch (err) {
        if (!(err instanceof UploadRefused)) throw err;
        figure(`mixed_run_${step.name}_wall_s`, "skipped", `(refused: ${err.status} ${err.body})`);
      }
    }
    const counts = Map.groupBy(ran, (shown) => shown);
    const mix = [...counts].map(([shown, times]) => times.length > 1 ? `${shown} x${times.length}` : shown).join(", ");
    figure(
      "mixed_run_server_peak_rss",
      await peakRssOf(server.pid),
      `MB (${mix}; ${n} photos each; ${WORKERS} workers; target <= 1200)`,
    );
  });
}

/**
 * HTTP figures (DESIGN §9): end-to-end throughput through the API as a ratio of
 * the pool's raw throughput, GET /api/jobs latency under 100 polling clients,
 * and the server's peak RSS while a 20 × ~10 MB upload is processed (half by MozJPEG, half by jpegli).
 */
import { eq } from "drizzle-orm";
import { createDb } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { ENCODERS } from "../contract/settings.ts";
import { DEFAULT_SET_WIDTHS } from "../contract/web-sets.ts";
import { API_KEYS_PATHS, type CreatedApiKey } from "../contract/api-keys.ts";
import { type RunningServer, startServer } from "../tests/setup/server-process.ts";
import type { CorpusImage } from "./corpus.ts";
import { figure } from "./report.ts";
import { asPortrait } from "./portrait.ts";

export interface Client {
  cookie: string;
  get(path: string): Promise<Response>;
}

/** Signs a new user up; returns their session cookie. */
export async function registerUser(server: RunningServer, username: string): Promise<string> {
  const res = await fetch(`${server.url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: "bench password" }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  await res.body?.cancel();
  return (res.headers.get("set-cookie") ?? "").split(";")[0]!;
}

/** Signs a Premium user up (no daily limit, no 20-file cap: the bench measures the pipeline, not the plan). */
export async function registerPremium(server: RunningServer, username: string): Promise<string> {
  const cookie = await registerUser(server, username);
  const { db, close } = await createDb({ url: server.databaseUrl });
  await db.update(users).set({ subscriptionStatus: "active" }).where(eq(users.username, username));
  close();
  return cookie;
}

/** A new API key of the signed-in user (POST /api/keys). */
export async function createApiKey(server: RunningServer, cookie: string): Promise<string> {
  const res = await fetch(`${server.url}${API_KEYS_PATHS.list}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({ name: "bench" }),
  });
  if (!res.ok) throw new Error(`POST ${API_KEYS_PATHS.list}: ${res.status} ${await res.text()}`);
  return (await res.json() as CreatedApiKey).key;
}

export async function premiumClient(server: RunningServer, username: string): Promise<Client> {
  const cookie = await registerPremium(server, username);
  return { cookie, get: (path) => fetch(`${server.url}${path}`, { headers: { Cookie: cookie } }) };
}

/** The upload answered other than 201 (e.g. 400: settings the product refuses); `body` is its answer. */
export class UploadRefused extends Error {
  constructor(readonly status: number, readonly body: string) {
    super(`compress: ${status} ${body}`);
  }
}

/** A batch's form: settings first, as the web app sends them (each image's work begins as it arrives, ADR 056). */
export function batchForm(images: CorpusImage[], fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({ maxConcurrent: "10", ...fields })) form.append(name, value);
  for (const image of images) {
    form.append("images", new File([image.bytes as Uint8Array<ArrayBuffer>], image.name, { type: "image/jpeg" }));
  }
  return form;
}

/**
 * One batch; `fields` are further settings fields of the form (DESIGN §4), e.g. `encoder`, or `maxConcurrent`
 * (10 unless given).
 */
export async function uploadAll(
  server: RunningServer,
  client: Client,
  images: CorpusImage[],
  fields: Record<string, string> = {},
): Promise<string[]> {
  const res = await fetch(`${server.url}/api/compress`, {
    method: "POST",
    headers: { Cookie: client.cookie },
    body: batchForm(images, fields),
  });
  if (res.status !== 201) throw new UploadRefused(res.status, await res.text());
  const { jobs } = await res.json() as { jobs: Array<{ id: string }> };
  return jobs.map((j) => j.id);
}

export interface JobView {
  id: string;
  status: string;
  errorMessage?: string | null;
  scorePending: boolean;
  encoder: string | null;
}

/** Polls until every job ended (and returns them); with `scored`, until every deferred score arrived too. */
export async function waitAllSettled(client: Client, ids: string[], scored = false): Promise<JobView[]> {
  const wanted = new Set(ids);
  for (;;) {
    // 5 polls a second: within the server's per-session poll budget (10/s), which answers 429 beyond it.
    await new Promise((r) => setTimeout(r, 200));
    const res = await client.get("/api/jobs");
    if (!res.ok) {
      await res.body?.cancel();
      continue;
    }
    const { jobs } = await res.json() as { jobs: JobView[] };
    const mine = jobs.filter((j) => wanted.has(j.id));
    const ended = (j: JobView) => (j.status === "completed" && !(scored && j.scorePending)) || j.status === "error";
    if (mine.length === ids.length && mine.every(ended)) return mine;
  }
}

/** A process's peak RSS in MB: VmHWM, the process's (all its threads') high-water mark. */
export async function peakRssOf(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Upload → completed → download of `images` through HTTP, default settings, on a fresh server:
 * seconds until every result was downloaded, and until every score (measured after its result) arrived.
 */
export async function httpEndToEnd(
  images: CorpusImage[],
  workers: number,
  username: string,
): Promise<{ seconds: number; scoredSeconds: number }> {
  const server = await startServer({ WORKERS: String(workers) });
  try {
    const client = await premiumClient(server, username);
    const t = performance.now();
    const ids = await uploadAll(server, client, images);
    await waitAllSettled(client, ids);
    await Promise.all(ids.map(async (id) => (await client.get(`/api/download/${id}`)).arrayBuffer()));
    const seconds = (performance.now() - t) / 1000;
    await waitAllSettled(client, ids, true);
    return { seconds, scoredSeconds: (performance.now() - t) / 1000 };
  } finally {
    await server.stop();
  }
}

/** Upload → completed → download of the whole corpus through HTTP. */
export async function httpThroughput(corpus: CorpusImage[], workers: number, rawImagesPerSecond: number) {
  const { seconds, scoredSeconds } = await httpEndToEnd(corpus, workers, "bench-throughput");
  figure(`http_end_to_end_throughput_${workers}_workers`, corpus.length / seconds, "images/s (results downloaded)");
  // Like for like: the raw pool measures every result in the job; HTTP measures it after the result.
  const rate = corpus.length / scoredSeconds;
  figure("http_throughput_vs_raw_pool", rate / rawImagesPerSecond, "ratio, results and scores (target >= 0.9)");
}

/** GET /api/jobs latency while 100 clients poll once a second during compression. */
export async function pollingLatency(corpus: CorpusImage[], workers: number) {
  const server = await startServer({ WORKERS: String(workers) });
  try {
    const uploader = await premiumClient(server, "bench-uploader");
    const pollers: Client[] = [];
    for (let i = 0; i < 100; i++) pollers.push(await premiumClient(server, `bench-poller-${i}`));
    // Give every poller a job list to read, as a real user would have.
    await Promise.all(pollers.slice(0, 10).map((p) => uploadAll(server, p, corpus.slice(0, 1))));
    const ids = await uploadAll(server, uploader, corpus);
    const latencies: number[] = [];
    let running = true;
    const loops = pollers.map(async (p, i) => {
      await new Promise((r) => setTimeout(r, (i * 10) % 1000)); // spread the clients over the second
      while (running) {
        const t = performance.now();
        const res = await p.get("/api/jobs");
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 1000));
      }
    });
    await waitAllSettled(uploader, ids);
    running = false;
    await Promise.all(loops);
    figure("api_jobs_poll_requests", latencies.length);
    figure("api_jobs_p50", percentile(latencies, 50), "ms");
    figure("api_jobs_p99", percentile(latencies, 99), "ms (target <= 25)");
  } finally {
    await server.stop();
  }
}

/**
 * The server's peak RSS while it processes 20 files of ~10 MB with both encoders in use (both WASM
 * modules resident in every worker): two batches of 10 uploaded at once, one with `encoder=mozjpeg`,
 * one with `encoder=jpegli`, each with the same photos.
 */
export async function bigUploadMemory(corpus: CorpusImage[], workers: number) {
  const big = corpus.filter((i) => i.bytes.length > 9_000_000 && i.bytes.length <= 10 * 1024 * 1024);
  if (big.length === 0) return figure("big_upload_files", 0, "(no ~10 MB photo in the corpus run: see BENCH_PHOTOS)");
  const images = Array.from({ length: 20 }, (_, i) => big[i % big.length]!);
  const half = images.length / ENCODERS.length;
  const server = await startServer({ WORKERS: String(workers) });
  try {
    const client = await premiumClient(server, "bench-memory");
    const t = performance.now();
    const batches = ENCODERS.map((encoder, k) =>
      uploadAll(server, client, images.slice(k * half, (k + 1) * half), { encoder })
    );
    const jobs = await waitAllSettled(client, (await Promise.all(batches)).flat());
    const made = Object.entries(
      Object.groupBy(jobs, (j) => j.encoder ?? (j.status === "error" ? "error" : "original")),
    );
    figure("big_upload_files", images.length, `x ~${(images[0]!.bytes.length / 1e6).toFixed(1)} MB`);
    figure(
      "big_upload_encoders",
      made.map(([encoder, list]) => `${encoder} ${list!.length}`).join(", "),
      `(${ENCODERS.length} batches of ${half} uploaded at once, one per encoder)`,
    );
    figure("big_upload_seconds", (performance.now() - t) / 1000, "s");
    figure(
      "big_upload_server_peak_rss",
      await peakRssOf(server.pid),
      `MB (${workers} workers, both encoders; target <= 1200)`,
    );
  } finally {
    await server.stop();
  }
}

/**
 * A batch of 20 web sets (the default 4 widths × AVIF + JPEG, auto) on a fresh server with `workers`
 * workers: its peak RSS (issue 30's target: ≤ 1,200 MB), photos of 4-16 MP from the run's corpus.
 */
export async function webSetBatchMemory(corpus: CorpusImage[], workers: number) {
  const photos = corpus.filter((i) => i.megapixels >= 4 && i.megapixels <= 16);
  if (photos.length === 0) return figure("web_set_batch_sets", 0, "(no 4-16 MP photo in the corpus run)");
  const images = Array.from({ length: 20 }, (_, i) => photos[i % photos.length]!);
  const server = await startServer({ WORKERS: String(workers) });
  try {
    const client = await premiumClient(server, "bench-sets");
    const t = performance.now();
    const ids = await uploadAll(server, client, images, { widths: DEFAULT_SET_WIDTHS.join(","), formats: "avif,jpeg" });
    const jobs = await waitAllSettled(client, ids);
    const megapixels = images.reduce((n, i) => n + i.megapixels, 0);
    figure(
      "web_set_batch_sets",
      `${jobs.filter((j) => j.status === "completed").length}/${images.length}`,
      `completed (${megapixels.toFixed(0)} MP, ${((performance.now() - t) / 1000).toFixed(0)} s)`,
    );
    for (const failed of jobs.filter((j) => j.status === "error")) console.log(`  failed: ${failed.errorMessage}`);
    figure("web_set_batch_server_peak_rss", await peakRssOf(server.pid), `MB (${workers} workers; target <= 1200)`);
  } finally {
    await server.stop();
  }
}

/**
 * One photo's default web set as a user waits for it (upload → completed) on a fresh server with `workers`
 * workers, against the same photo's fixed job on that server: the set, alone, runs split over the workers
 * (ADR 038). Then the same photo as a phone's portrait (EXIF orientation 6) against its own fixed job. The
 * server's peak RSS through all of them.
 */
export async function webSetAloneHttp(photo: CorpusImage, workers: number) {
  const server = await startServer({ WORKERS: String(workers) });
  try {
    const client = await premiumClient(server, "bench-set-alone");
    const wait = async (image: CorpusImage, fields: Record<string, string>) => {
      const t = performance.now();
      const ids = await uploadAll(server, client, [image], fields);
      const jobs = await waitAllSettled(client, ids);
      if (jobs[0]?.status !== "completed") throw new Error(`job ${jobs[0]?.status}: ${jobs[0]?.errorMessage}`);
      const ms = performance.now() - t;
      // A fixed job's score is measured after it completes: the next job starts on a quiet server.
      await waitAllSettled(client, ids, true);
      return ms;
    };
    const setFields = { widths: DEFAULT_SET_WIDTHS.join(","), formats: "avif,jpeg" };
    const setVsFixed = async (image: CorpusImage) => {
      await wait(image, {}); // the workers warm
      const fixed = Math.min(await wait(image, {}), await wait(image, {}));
      const set = await wait(image, setFields);
      return {
        ratio: `${(set / fixed).toFixed(1)}x`,
        times: `${(set / 1000).toFixed(1)} s against ${(fixed / 1000).toFixed(2)} s`,
      };
    };
    const landscape = await setVsFixed(photo);
    figure(
      "web_set_alone_http_vs_fixed",
      landscape.ratio,
      `(${landscape.times} upload to completed, ${photo.name}, ${workers} workers; target <= 12x)`,
    );
    const portrait = await setVsFixed({
      ...photo,
      name: photo.name.replace(/(\.jpe?g)?$/i, "-portrait$1"),
      bytes: asPortrait(photo.bytes),
    });
    figure(
      "web_set_portrait_http_vs_fixed",
      portrait.ratio,
      `(${portrait.times} upload to completed, the same photo with EXIF orientation 6; target <= 12x)`,
    );
    figure("web_set_alone_server_peak_rss", await peakRssOf(server.pid), `MB (${workers} workers; target <= 1200)`);
  } finally {
    await server.stop();
  }
}

/** A batch of 20 archives (format=jxl&archive=true) on a fresh server with `workers` workers: its peak RSS. */
export async function archiveBatchMemory(corpus: CorpusImage[], workers: number) {
  const images = Array.from({ length: 20 }, (_, i) => corpus[i % corpus.length]!);
  const server = await startServer({ WORKERS: String(workers) });
  try {
    const client = await premiumClient(server, "bench-archives");
    const t = performance.now();
    const ids = await uploadAll(server, client, images, { format: "jxl", archive: "true" });
    const jobs = await waitAllSettled(client, ids);
    figure(
      "jxl_archive_batch",
      `${jobs.filter((j) => j.status === "completed").length}/${images.length}`,
      `completed (${((performance.now() - t) / 1000).toFixed(0)} s)`,
    );
    figure("jxl_archive_batch_server_peak_rss", await peakRssOf(server.pid), `MB (${workers} workers; target <= 1200)`);
  } finally {
    await server.stop();
  }
}

/**
 * Several instances on one libSQL server (sqld) and one S3 store (s3rver), as real processes, with the
 * multi-instance test's harness (tests/setup/): the same total workers as 1 instance × 3 workers and as
 * 3 instances × 1 worker (jobs/s until every job of uploads spread over the instances completed),
 * GET /api/jobs latency across 3 instances while 30 clients poll during compression, and how long after a
 * SIGKILL of an instance (short JOB_LEASE_MS) the last job it held completes on another instance.
 * Runnable alone: `deno run -A bench/instances.ts`.
 */
import { sql } from "drizzle-orm";
import { createDb } from "../db/client.ts";
import { ensureSqld, startSqld } from "../tests/setup/sqld.ts";
import { startS3Server } from "../tests/setup/s3-server.ts";
import { jobRunEvents, runningOn, type RunningServer, startServer } from "../tests/setup/server-process.ts";
import { remoteJobs, remoteSignUp } from "../tests/setup/remote-client.ts";
import type { CorpusImage } from "./corpus.ts";
import { figure } from "./report.ts";

const PHOTOS = 12; // the first photos of the corpus: keeps the section around two minutes
const POLLERS = 30;
const LEASE_MS = 3000;

interface Cluster {
  servers: RunningServer[];
  /** Signs a user up through `server` (Premium with `premium`); returns the session cookie. */
  signUp(server: RunningServer, username: string, premium?: boolean): Promise<string>;
  stop(): Promise<void>;
}

/** One sqld, one s3rver and `instances` app processes with `workers` each on both. */
async function startCluster(instances: number, workers: number, env: Record<string, string> = {}): Promise<Cluster> {
  const sqld = await startSqld();
  const s3 = await startS3Server();
  const database = await createDb({ url: sqld.url }); // migrations once, before the instances
  const servers: RunningServer[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    database.close();
    await s3.stop();
    await sqld.stop();
  };
  try {
    const started = await Promise.allSettled(
      Array.from({ length: instances }, () =>
        startServer({
          DATABASE_URL: sqld.url,
          STORE_URL: s3.storeUrl,
          ...s3.env,
          WORKERS: String(workers),
          ...env,
        })),
    );
    for (const s of started) if (s.status === "fulfilled") servers.push(s.value);
    const failed = started.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    servers,
    async signUp(server, username, premium = false) {
      const cookie = await remoteSignUp(server.url, username, "bench password");
      if (premium) {
        // Premium lifts the daily limit and the 20-file cap, so the bench measures the pipeline, not the plan.
        await database.db.run(sql`UPDATE users SET subscription_status = 'active' WHERE username = ${username}`);
      }
      return cookie;
    },
    stop,
  };
}

const photoFile = (image: CorpusImage, as = image.name) =>
  new File([image.bytes as Uint8Array<ArrayBuffer>], as, { type: "image/jpeg" });

/** One upload (one batch, up to 10 of its jobs at once); the new jobs' ids. */
async function upload(server: RunningServer, cookie: string, files: File[]): Promise<string[]> {
  const form = new FormData();
  for (const f of files) form.append("images", f);
  form.append("maxConcurrent", "10");
  const res = await fetch(`${server.url}/api/compress`, { method: "POST", headers: { Cookie: cookie }, body: form });
  if (res.status !== 201) throw new Error(`compress: ${res.status} ${await res.text()}`);
  return ((await res.json()).jobs as { id: string }[]).map((j) => j.id);
}

/** Polls `server` 5 times a second (within the per-session poll budget) until every job in `ids` completed. */
async function waitCompleted(server: RunningServer, cookie: string, ids: string[], timeoutMs = 300_000) {
  const wanted = new Set(ids);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    const mine = (await remoteJobs(server.url, cookie)).filter((j) => wanted.has(j.id));
    const failed = mine.find((j) => j.status === "error");
    if (failed) throw new Error(`job ${failed.id} failed: ${failed.errorMessage}`);
    if (mine.length === ids.length && mine.every((j) => j.status === "completed")) return;
    if (Date.now() > deadline) throw new Error(`jobs did not complete: ${mine.map((j) => j.status).join(",")}`);
  }
}

/** Splits `items` into `parts` round-robin groups. */
const spread = <T>(items: T[], parts: number): T[][] =>
  Array.from({ length: parts }, (_, p) => items.filter((_, i) => i % parts === p));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Jobs/s of `photos` uploaded as 3 batches spread over the instances, until all completed, and how busy the
 * workers were with those jobs over that time (from the `job run` log lines; the rest is idle or deferred scores).
 */
async function throughput(photos: CorpusImage[], instances: number, workers: number) {
  const cluster = await startCluster(instances, workers, { LOG_LEVEL: "debug" });
  try {
    const [first] = cluster.servers as [RunningServer];
    const cookie = await cluster.signUp(first, `bench-${instances}x${workers}`, true);
    const files = photos.map((p) => photoFile(p));
    const began = Date.now();
    const t = performance.now();
    const ids = (await Promise.all(
      spread(files, 3).map((group, i) => upload(cluster.servers[i % instances]!, cookie, group)),
    )).flat();
    await waitCompleted(first, cookie, ids);
    const seconds = (performance.now() - t) / 1000;
    const ran = runs(cluster.servers).reduce((sum, r) => sum + r.end - r.start, 0);
    return { jobsPerSecond: ids.length / seconds, busy: ran / (instances * workers * (Date.now() - began)) };
  } finally {
    await cluster.stop();
  }
}

/** GET /api/jobs latency over 3 instances while 30 clients poll once a second each during compression. */
async function pollingAcrossInstances(photos: CorpusImage[]) {
  const cluster = await startCluster(3, 1);
  try {
    const servers = cluster.servers;
    const uploader = await cluster.signUp(servers[0]!, "bench-uploader", true);
    // Each poller signs up through one instance and polls through the next: sessions live in the database.
    const pollers = await Promise.all(
      Array.from({ length: POLLERS }, async (_, i) => ({
        cookie: await cluster.signUp(servers[(i + 1) % 3]!, `bench-poller-${i}`),
        server: servers[i % 3]!,
      })),
    );
    // A few pollers have a job list to read, as real users would.
    await Promise.all(pollers.slice(0, 3).map((p) => upload(p.server, p.cookie, [photoFile(photos[0]!)])));
    const ids = (await Promise.all(
      spread(photos.map((p) => photoFile(p)), 3).map((group, i) => upload(servers[i]!, uploader, group)),
    )).flat();
    const latencies: number[] = [];
    let limited = 0;
    let running = true;
    const loops = pollers.map(async (p, i) => {
      await new Promise((r) => setTimeout(r, (i * 1000) / POLLERS)); // spread the clients over the second
      while (running) {
        const t = performance.now();
        const res = await fetch(`${p.server.url}/api/jobs`, { headers: { Cookie: p.cookie } });
        await res.arrayBuffer();
        if (res.status === 429) limited++;
        else if (!res.ok) throw new Error(`GET /api/jobs: ${res.status}`);
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 1000));
      }
    });
    try {
      await waitCompleted(servers[2]!, uploader, ids);
    } finally {
      running = false;
      await Promise.all(loops);
    }
    figure("instances_3_api_jobs_poll_requests", latencies.length, `(${POLLERS} clients, ${limited} answered 429)`);
    figure("instances_3_api_jobs_p50_ms", percentile(latencies, 50), "ms");
    figure("instances_3_api_jobs_p99_ms", percentile(latencies, 99), "ms");
  } finally {
    await cluster.stop();
  }
}

/** Every finished run the instances logged (LOG_LEVEL=debug), as start and end times in ms since the epoch. */
function runs(servers: RunningServer[]): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const server of servers) {
    const open = new Map<string, number>();
    for (const { event, job, at } of jobRunEvents(server)) {
      if (event === "start") open.set(job, at);
      else if (open.has(job)) out.push({ start: open.get(job)!, end: at });
    }
  }
  return out;
}

/** When `job` last logged a `job run` end on any of `servers` (ms since the epoch), or undefined. */
function lastEnd(servers: RunningServer[], job: string): number | undefined {
  let last: number | undefined;
  for (const server of servers) {
    for (const { event, job: id, at } of jobRunEvents(server)) {
      if (event === "end" && id === job) last = Math.max(last ?? 0, at);
    }
  }
  return last;
}

/** SIGKILL A while it runs a job of a batch; ms from the kill until the last job A held completed on B or C. */
async function sigkillToLastOrphan(photos: CorpusImage[]) {
  const cluster = await startCluster(3, 1, { JOB_LEASE_MS: String(LEASE_MS), LOG_LEVEL: "debug" });
  try {
    const [a, b, c] = cluster.servers as [RunningServer, RunningServer, RunningServer];
    const cookie = await cluster.signUp(b, "bench-sigkill", true);
    const ids = await upload(b, cookie, photos.map((p, i) => photoFile(p, `k${i}-${p.name}`)));
    const batch = new Set(ids);
    // Wait until A runs a job of the batch and one has already completed somewhere (the batch is under way).
    const deadline = Date.now() + 120_000;
    let completed = 0, checked = 0;
    while (!(completed >= 1 && runningOn(a).some((id) => batch.has(id)))) {
      if (Date.now() > deadline) throw new Error("A never ran a job of the batch");
      if (Date.now() - checked > 250) { // within the per-session poll budget
        checked = Date.now();
        completed = (await remoteJobs(c.url, cookie)).filter((j) => batch.has(j.id) && j.status === "completed")
          .length;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const held = runningOn(a).filter((id) => batch.has(id));
    const killedAt = Date.now();
    await a.kill();
    await waitCompleted(c, cookie, ids);
    const ends = held.map((id) => lastEnd([b, c], id));
    if (ends.some((at) => at === undefined)) throw new Error("a job A held has no end on B or C");
    figure(
      "instances_sigkill_to_last_orphan_ms",
      Math.max(...(ends as number[])) - killedAt,
      `ms (JOB_LEASE_MS=${LEASE_MS}; A held ${held.length} job(s), ${completed} of ${ids.length} completed before)`,
    );
    figure("instances_sigkill_batch_total_s", (Date.now() - killedAt) / 1000, "s from the kill to the whole batch");
  } finally {
    await cluster.stop();
  }
}

/** Every figure of the section; skipped (with a line saying why) where sqld cannot be installed. */
export async function instancesBench(corpus: CorpusImage[]) {
  const unavailable = await ensureSqld().then(() => null, (err: Error) => err);
  if (unavailable) {
    figure("instances_skipped", unavailable.message.split("\n")[0]!);
    return;
  }
  const photos = corpus.slice(0, PHOTOS);
  const one = await throughput(photos, 1, 3);
  const three = await throughput(photos, 3, 1);
  const n = photos.length;
  figure("instances_jobs_per_s_1x3_workers", one.jobsPerSecond, `jobs/s (${n} photos, 1 instance, WORKERS=3)`);
  figure("instances_jobs_per_s_3x1_workers", three.jobsPerSecond, `jobs/s (${n} photos, 3 instances, WORKERS=1)`);
  figure("instances_3_vs_1_throughput", three.jobsPerSecond / one.jobsPerSecond, "ratio");
  figure("instances_workers_busy_pct_1x3", 100 * one.busy, "% of worker time running jobs until all completed");
  figure("instances_workers_busy_pct_3x1", 100 * three.busy, "% of worker time running jobs until all completed");
  await pollingAcrossInstances(photos);
  await sigkillToLastOrphan(photos);
}

if (import.meta.main) {
  const { loadCorpus } = await import("./corpus.ts");
  await instancesBench(await loadCorpus());
}

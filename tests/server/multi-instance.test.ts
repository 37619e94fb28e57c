/**
 * Three instances on one libSQL server (sqld) and one S3 store (s3rver), as real processes
 * (WORKERS=1 each, JOB_LEASE_MS=3000): any instance answers any request of a signed-in user, the
 * quota holds exactly across instances, jobs survive an instance killed mid-batch (charged once)
 * and a SIGTERM drains; over all of it, no job ever ran on two instances at once (from each
 * instance's `job run` debug log lines, LOG_LEVEL=debug).
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createDb } from "../../db/client.ts";
import { encodeJpegPixels } from "../../codecs/jpeg/encode.ts";
import { thumbnailOptions } from "../../codecs/jpeg/options.ts";
import { ensureSqld, startSqld } from "../setup/sqld.ts";
import { startS3Server } from "../setup/s3-server.ts";
import { jobRunEvents, runningOn, type RunningServer, startServer } from "../setup/server-process.ts";
import {
  fixtureFile,
  type RemoteJob,
  remoteJobs,
  remoteSignUp,
  remoteUpload,
  remoteWaitForSettled,
} from "../setup/remote-client.ts";
import { POOL_START_STALL_MS, waitFor } from "../setup/wait-for.ts";

const unavailable = await ensureSqld().then(() => null, (err: Error) => err);
const ignore = unavailable !== null && Deno.env.get("CI") !== "true";
if (ignore) console.warn(`Skipping the multi-instance test: ${unavailable.message}`);

const LEASE_MS = 3000;

/**
 * Waits in this test fail when no job moved (no status or progress change) for a while, never at a fixed time:
 * how long jobs take depends on the machine (the codec workers run at nice 10, behind any busy process). The first
 * job, on instances that have just started, waits as long as pools take to start; later waits get a bound scaled
 * from what a job took here.
 */
const stallAfter = (jobMs: number) => Math.max(30_000, LEASE_MS + 4 * jobMs);

/** The job ids of a 201 upload answer. */
const idsOf = async (res: Response): Promise<Set<string>> =>
  new Set(((await res.json()).jobs as { id: string }[]).map((j) => j.id));

const allCompleted = (jobs: RemoteJob[]) =>
  assert.ok(
    jobs.every((j) => j.status === "completed"),
    JSON.stringify(jobs.filter((j) => j.status !== "completed")),
  );

/** A noisy photo-sized JPEG (1600×1200), so a job takes long enough to be caught running. */
async function bigJpeg(): Promise<Uint8Array<ArrayBuffer>> {
  const width = 1600, height = 1200;
  const data = new Uint8ClampedArray(width * height * 4);
  let seed = 42;
  for (let i = 0; i < data.length; i += 4) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const x = (i / 4) % width, y = Math.floor(i / 4 / width);
    data[i] = (x / 7 + (seed & 63)) & 255;
    data[i + 1] = (y / 5 + ((seed >> 6) & 63)) & 255;
    data[i + 2] = ((x + y) / 9 + ((seed >> 12) & 63)) & 255;
    data[i + 3] = 255;
  }
  return new Uint8Array(await encodeJpegPixels({ data, width, height }, { ...thumbnailOptions(), quality: 95 }));
}

interface Run {
  job: string;
  instance: string;
  start: number;
  end: number;
}

/** Each start with its end on the same instance (or the instance's death for a killed one). */
function runsOf(servers: { server: RunningServer; diedAt: number }[]): Run[] {
  const runs: Run[] = [];
  for (const { server, diedAt } of servers) {
    const open = new Map<string, Run>();
    for (const { event, job, instance, at } of jobRunEvents(server)) {
      if (event === "start") open.set(job, { job, instance, start: at, end: Infinity });
      else {
        const run = open.get(job);
        if (run) runs.push({ ...run, end: at });
        open.delete(job);
      }
    }
    for (const run of open.values()) runs.push({ ...run, end: diedAt });
  }
  return runs;
}

/** How many of `runs` ran on the instance `server` (named by its job run lines). */
function runningOnCount(runs: Run[], server: RunningServer): number {
  const instances = new Set(runsOf([{ server, diedAt: Infinity }]).map((r) => r.instance));
  return runs.filter((r) => instances.has(r.instance)).length;
}

Deno.test({
  name: "three instances on one sqld and one S3 store",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    if (unavailable) throw unavailable;
    const began = Date.now();
    const sqld = await startSqld();
    const s3 = await startS3Server();
    const database = await createDb({ url: sqld.url }); // migrations once, before the instances
    const env = {
      DATABASE_URL: sqld.url,
      STORE_URL: s3.storeUrl,
      ...s3.env,
      WORKERS: "1",
      JOB_LEASE_MS: String(LEASE_MS),
      QUEUE_POLL_MS: "250",
      LOG_LEVEL: "debug",
    };
    const [a, b, c, http] = await Promise.all([
      startServer(env),
      startServer(env),
      startServer(env),
      startServer({ ...env, WORKERS: "0" }), // serves HTTP only
    ]) as [RunningServer, RunningServer, RunningServer, RunningServer];
    const died = new Map<RunningServer, number>();
    const timings: string[] = [];
    /** What one small job took here, cold (on instances that had just started): the scale of later waits. */
    let smallJobMs = 0;
    const timed = async (name: string, fn: () => Promise<void>) => {
      const t0 = Date.now();
      await t.step(name, fn);
      timings.push(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    };
    try {
      await timed("upload through A; poll and download through B and C", async () => {
        const cookie = await remoteSignUp(a.url, "ann");
        const file = await fixtureFile("base.jpg");
        const t0 = performance.now();
        const res = await remoteUpload(a.url, cookie, [file]);
        assert.equal(res.status, 201, await res.clone().text());
        const [job] = await remoteWaitForSettled(b.url, cookie, await idsOf(res), POOL_START_STALL_MS);
        smallJobMs = performance.now() - t0;
        assert.equal(job!.status, "completed", JSON.stringify(job));
        timings.push(`  one cold job: ${(smallJobMs / 1000).toFixed(1)} s`);
        const download = await fetch(`${c.url}/api/download/${job!.id}`, { headers: { Cookie: cookie } });
        assert.equal(download.status, 200);
        assert.ok((await download.arrayBuffer()).byteLength > 0);
      });

      await timed("upload through an instance with WORKERS=0: it never runs a job, the others do", async () => {
        assert.ok(http.stdout.some((l) => l.startsWith("WORKERS=0")), http.stdout.join("\n"));
        const cookie = await remoteSignUp(http.url, "hugo");
        const res = await remoteUpload(http.url, cookie, [
          await fixtureFile("base.jpg"),
          await fixtureFile("base.jpg"),
        ]);
        assert.equal(res.status, 201, await res.clone().text());
        const jobs = await remoteWaitForSettled(http.url, cookie, await idsOf(res), stallAfter(smallJobMs));
        allCompleted(jobs);
        const download = await fetch(`${http.url}/api/download/${jobs[0]!.id}`, { headers: { Cookie: cookie } });
        assert.equal(download.status, 200);
        await download.body?.cancel();
      });

      await timed("30 parallel single-file uploads of a free user over A, B, C: exactly 10 accepted", async () => {
        const cookie = await remoteSignUp(b.url, "fred");
        const file = await fixtureFile("base.jpg");
        const servers = [a, b, c];
        const accepted = new Set<string>();
        const statuses = await Promise.all(
          Array.from({ length: 30 }, async (_, i) => {
            const res = await remoteUpload(servers[i % 3]!.url, cookie, [file]);
            if (res.status === 201) { for (const id of await idsOf(res)) accepted.add(id); }
            else await res.body?.cancel();
            return res.status;
          }),
        );
        assert.equal(statuses.filter((s) => s === 201).length, 10, JSON.stringify(statuses));
        assert.ok(statuses.every((s) => s === 201 || s === 429), JSON.stringify(statuses));
        assert.equal(accepted.size, 10);
        const jobs = await remoteWaitForSettled(c.url, cookie, accepted, stallAfter(smallJobMs));
        allCompleted(jobs);
        assert.equal((await remoteJobs(c.url, cookie)).length, 10, "no other job was made");
        const usage = await (await fetch(`${a.url}/api/usage`, { headers: { Cookie: cookie } })).json();
        assert.equal(usage.used, 10);
        // Work spread over instances, yet the free plan's 2 at once held over all of them.
        const ran = runsOf([a, b, c].map((server) => ({ server, diedAt: Infinity })))
          .filter((r) => jobs.some((j) => j.id === r.job));
        assert.ok(new Set(ran.map((r) => r.instance)).size >= 2, "more than one instance ran them");
        const atOnce = Math.max(...ran.map((x) => ran.filter((y) => y.start <= x.start && x.start < y.end).length));
        assert.ok(atOnce <= 2, `${atOnce} of the free user's jobs ran at once`);
        timings.push(
          `  ran on ${new Set(ran.map((r) => r.instance)).size} instances, at most ${atOnce} at once`,
        );
      });

      await timed("300 small jobs uploaded through A, B and C: each runs once and completes", async () => {
        const cookie = await remoteSignUp(a.url, "paul");
        await database.db.run(sql`UPDATE users SET subscription_status = 'active' WHERE username = 'paul'`);
        const small = await fixtureFile("base.jpg");
        const uploads = await Promise.all([a, b, c].map(async (server, n) => {
          const files = Array.from(
            { length: 100 },
            (_, i) => new File([small], `s${n}-${i}.jpg`, { type: "image/jpeg" }),
          );
          const res = await remoteUpload(server.url, cookie, files);
          assert.equal(res.status, 201, await res.clone().text());
          return ((await res.json()).jobs as { id: string }[]).map((j) => j.id);
        }));
        const ids = new Set(uploads.flat());
        assert.equal(ids.size, 300);
        const jobs = await remoteWaitForSettled(b.url, cookie, ids, stallAfter(smallJobMs));
        allCompleted(jobs);
        assert.equal(jobs.length, 300);
        const ran = runsOf([a, b, c].map((server) => ({ server, diedAt: Infinity }))).filter((r) => ids.has(r.job));
        assert.equal(ran.length, 300, "no job of these ran twice (no instance died meanwhile)");
        assert.equal(new Set(ran.map((r) => r.instance)).size, 3, "all three instances ran some");
        const usage = await (await fetch(`${c.url}/api/usage`, { headers: { Cookie: cookie } })).json();
        assert.equal(usage.used, 300, "each job charged once");
        timings.push(`  per instance: ${[a, b, c].map((s) => runningOnCount(ran, s)).join(" / ")} runs`);
      });

      const premium = await remoteSignUp(c.url, "pia");
      await database.db.run(sql`UPDATE users SET subscription_status = 'active' WHERE username = 'pia'`);
      const big = new File([await bigJpeg()], "big.jpg", { type: "image/jpeg" });
      /** What a big job took here (measured below): the scale of the waits on big jobs. */
      let bigJobMs = 0;

      await timed("SIGKILL A in the middle of a 20-file batch: all complete, charged once", async () => {
        const files = Array.from({ length: 20 }, (_, i) => new File([big], `p${i}.jpg`, { type: "image/jpeg" }));
        const t0 = performance.now();
        const res = await remoteUpload(b.url, premium, files);
        assert.equal(res.status, 201, await res.clone().text());
        const ids = await idsOf(res);
        let batch: RemoteJob[] = [], checked = 0;
        const done = () => batch.filter((j) => j.status === "completed").length;
        await waitFor(
          async () => {
            if (Date.now() - checked > 250) { // within the per-session poll budget
              checked = Date.now();
              batch = (await remoteJobs(c.url, premium)).filter((j) => ids.has(j.id));
            }
            return done() >= 3 && runningOn(a).some((id) => ids.has(id));
          },
          {
            timeoutMs: stallAfter(smallJobMs),
            intervalMs: 20,
            progress: () => batch.map((j) => `${j.status} ${j.progress}`).join() + runningOn(a).join(),
            message: () => `A running a job of the batch after 3 completed (${done()})`,
          },
        );
        // At least one big job's time here (three instances ran the batch from the start).
        bigJobMs = performance.now() - t0;
        const killedAt = Date.now();
        const held = runningOn(a).filter((id) => ids.has(id));
        await a.kill();
        died.set(a, killedAt);
        // The two left run the other 17; A's job waits for its lease to lapse first.
        const jobs = await remoteWaitForSettled(c.url, premium, ids, stallAfter(bigJobMs));
        timings.push(
          `  A killed holding ${held.length} job(s); all 20 ended ${
            ((Date.now() - killedAt) / 1000).toFixed(1)
          } s after the kill (lease ${LEASE_MS / 1000} s, a big job ~${(bigJobMs / 1000).toFixed(1)} s)`,
        );
        allCompleted(jobs);
        assert.equal(jobs.length, 20);
        const usage = await (await fetch(`${b.url}/api/usage`, { headers: { Cookie: premium } })).json();
        assert.equal(usage.used, 20, "each job charged once");
        const rows = await database.db.all<{ n: number }>(
          sql`SELECT count(*) AS n FROM jobs WHERE lease_owner IS NOT NULL AND status <> 'completed'`,
        );
        assert.equal(Number(rows[0]!.n), 0);
      });

      await timed("SIGTERM on B drains: its running job completes, nothing is lost", async () => {
        const files = Array.from({ length: 6 }, (_, i) => new File([big], `t${i}.jpg`, { type: "image/jpeg" }));
        const res = await remoteUpload(c.url, premium, files);
        assert.equal(res.status, 201);
        const ids = await idsOf(res);
        await waitFor(() => runningOn(b).some((id) => ids.has(id)), {
          timeoutMs: stallAfter(bigJobMs),
          intervalMs: 20,
          // Jobs of the batch starting and ending on the instances left.
          progress: () => [b, c].map((s) => jobRunEvents(s).length).join(),
          message: "B running a job of the batch",
        });
        const running = runningOn(b).filter((id) => ids.has(id));
        const t0 = Date.now();
        await b.stop();
        died.set(b, Date.now());
        timings.push(`  B drained in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        assert.deepEqual(runningOn(b), [], "B ended what it ran before exiting");
        const jobs = await remoteWaitForSettled(c.url, premium, ids, stallAfter(bigJobMs));
        allCompleted(jobs);
        assert.equal(jobs.length, 6);
        assert.ok(running.length > 0);
        const usage = await (await fetch(`${c.url}/api/usage`, { headers: { Cookie: premium } })).json();
        assert.equal(usage.used, 26, "each job charged once");
      });

      await timed("no job ever ran on two instances at once", () => {
        assert.deepEqual(jobRunEvents(http), [], "the WORKERS=0 instance ran nothing");
        const runs = runsOf([a, b, c].map((server) => ({ server, diedAt: died.get(server) ?? Date.now() })));
        assert.ok(runs.length >= 339, `${runs.length} runs recorded`);
        for (const x of runs) {
          for (const y of runs) {
            if (x === y || x.job !== y.job || x.instance === y.instance) continue;
            assert.ok(
              x.end <= y.start || y.end <= x.start,
              `job ${x.job} overlapped on ${x.instance} and ${y.instance}`,
            );
          }
        }
        timings.push(
          `  ${runs.length} runs of ${new Set(runs.map((r) => r.job)).size} jobs; ${
            runs.length - new Set(runs.map((r) => r.job)).size
          } re-run(s) after A's death`,
        );
        return Promise.resolve();
      });
    } finally {
      for (const server of [a, b, c, http]) if (!died.has(server)) await server.stop();
      database.close();
      await s3.stop();
      await sqld.stop();
      timings.push(`total: ${((Date.now() - began) / 1000).toFixed(1)} s`);
      console.log(timings.join("\n"));
    }
  },
});

/**
 * The server as README's "Deploy to Deno Deploy" sets it up (docs/deploy-notes.md): Deno Deploy runs the
 * standard runtime with --allow-all, so the codec runs on Web Workers (WORKERS=1, MAX_STORE_BYTES for the
 * default 768 MB memory limit), the database is a libSQL server (sqld for Turso) and the bytes are on S3
 * (s3rver). Instances share no disk, so --deny-write checks that this setup keeps nothing on its own.
 * Sign-up, upload, completed, download over HTTP against the real process; its pages describe the S3
 * store; its peak memory stays under 768 MB; SIGINT (Deploy's stop signal, SIGKILL 5 s later) ends an
 * idle instance within those 5 s.
 */
import assert from "node:assert/strict";
import { ensureSqld, startSqld } from "../setup/sqld.ts";
import { startS3Server } from "../setup/s3-server.ts";
import { startServer } from "../setup/server-process.ts";
import { fixtureFile, remoteSignUp, remoteUpload, remoteWaitForJobs } from "../setup/remote-client.ts";

/** Deno Deploy's default runtime memory limit (docs.deno.com/deploy/reference/builds), read as decimal MB. */
const DEPLOY_MEMORY_LIMIT_BYTES = 768 * 1000 * 1000;
/** What README sets MAX_STORE_BYTES to under that limit. */
const README_MAX_STORE_BYTES = "268435456";
/** Deploy sends SIGINT, then SIGKILL 5 s later (docs.deno.com/deploy/reference/runtime). */
const DEPLOY_SHUTDOWN_GRACE_MS = 5_000;

const unavailable = await ensureSqld().then(() => null, (err: Error) => err);
const ignore = unavailable !== null && Deno.env.get("CI") !== "true";
if (ignore) console.warn(`Skipping the deploy-like test: ${unavailable.message}`);

/** The process's status fields from /proc: peak resident memory in bytes and its state letter ("" once gone). */
async function procStatus(pid: number): Promise<{ peakBytes: number; state: string }> {
  try {
    const text = await Deno.readTextFile(`/proc/${pid}/status`);
    const peakKib = Number(text.match(/^VmHWM:\s+(\d+) kB/m)?.[1] ?? 0);
    return { peakBytes: peakKib * 1024, state: text.match(/^State:\s+(\S)/m)?.[1] ?? "" };
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return { peakBytes: 0, state: "" };
    throw err;
  }
}

Deno.test({
  name: "Deploy setup (-A --deny-write, WORKERS=1, sqld and S3): sign-up → upload → completed → download → SIGINT",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if (unavailable) throw unavailable;
    const sqld = await startSqld();
    const s3 = await startS3Server();
    try {
      const server = await startServer({
        DATABASE_URL: sqld.url,
        STORE_URL: s3.storeUrl,
        ...s3.env,
        WORKERS: "1",
        MAX_STORE_BYTES: README_MAX_STORE_BYTES,
      }, { denoFlags: ["-A", "--deny-write"] });
      try {
        // Web Workers, as the full runtime has them (not the in-process fallback).
        assert.ok(server.stdout.some((l) => l.includes("on 1 worker(s)")), server.stdout.join("\n"));
        // The pages a visitor gets describe the S3 store the process runs with (ADR 020).
        const privacy = await (await fetch(`${server.url}/privacy`)).text();
        assert.match(privacy, /<meta name="store-kind" content="s3"/);
        assert.doesNotMatch(privacy, /never written to disk/);
        const cookie = await remoteSignUp(server.url, "deployed");
        const res = await remoteUpload(server.url, cookie, [await fixtureFile("base.jpg")]);
        assert.equal(res.status, 201, await res.clone().text());
        const [job] = await remoteWaitForJobs(
          server.url,
          cookie,
          (js) => js[0]?.status === "completed" || js[0]?.status === "error",
        );
        assert.equal(job!.status, "completed", job!.errorMessage ?? "");
        const download = await fetch(`${server.url}/api/download/${job!.id}`, { headers: { Cookie: cookie } });
        assert.equal(download.status, 200);
        const bytes = new Uint8Array(await download.arrayBuffer());
        assert.deepEqual([...bytes.subarray(0, 2)], [0xff, 0xd8], "a JPEG");

        // Worker threads are in the same process, so its peak covers the codec too (a small photo here;
        // README gives the peaks measured for larger ones).
        const { peakBytes } = await procStatus(server.pid);
        assert.ok(peakBytes > 0 && peakBytes < DEPLOY_MEMORY_LIMIT_BYTES, `peak RSS ${peakBytes} bytes`);

        const signalled = performance.now();
        Deno.kill(server.pid, "SIGINT");
        let exited = false;
        while (performance.now() - signalled < DEPLOY_SHUTDOWN_GRACE_MS) {
          const { state } = await procStatus(server.pid);
          if (state === "" || state === "Z") {
            exited = true;
            break;
          }
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.ok(exited, `still running ${DEPLOY_SHUTDOWN_GRACE_MS} ms after SIGINT`);
      } finally {
        await server.stop();
      }
    } finally {
      await s3.stop();
      await sqld.stop();
    }
  },
});

/**
 * The server as Deno Deploy runs it: no FFI, no writable disk, no Web Workers (the codec in
 * process, CODEC_IN_PROCESS=true), the database on a libSQL server (sqld) and the bytes on S3
 * (s3rver). Sign-up, upload, completed, download over HTTP against the real process; its pages
 * describe the S3 store.
 */
import assert from "node:assert/strict";
import { ensureSqld, startSqld } from "../setup/sqld.ts";
import { startS3Server } from "../setup/s3-server.ts";
import { startServer } from "../setup/server-process.ts";
import { fixtureFile, remoteSignUp, remoteUpload, remoteWaitForJobs } from "../setup/remote-client.ts";

const unavailable = await ensureSqld().then(() => null, (err: Error) => err);
const ignore = unavailable !== null && Deno.env.get("CI") !== "true";
if (ignore) console.warn(`Skipping the deploy-like test: ${unavailable.message}`);

Deno.test({
  name: "--deny-ffi --deny-write, CODEC_IN_PROCESS, sqld and S3: sign-up → upload → completed → download",
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
        CODEC_IN_PROCESS: "true",
        WORKERS: "1",
      }, { denoFlags: ["-A", "--deny-ffi", "--deny-write"] });
      try {
        assert.ok(server.stdout.some((l) => l.includes("in process")), server.stdout.join("\n"));
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
      } finally {
        await server.stop();
      }
    } finally {
      await s3.stop();
      await sqld.stop();
    }
  },
});

/**
 * An S3-compatible server for tests: s3rver from npm (package.json devDependency), in a child
 * process on a free port, storing in a temp folder, with one bucket. It checks SigV4 signatures
 * against its one key pair (S3RVER / S3RVER), so wrong credentials fail as on AWS.
 */
import { keepTail } from "./output-tail.ts";

const MAIN = new URL("./s3-server-main.ts", import.meta.url).pathname;
const REPO = new URL("../../", import.meta.url).pathname;

export interface RunningS3 {
  /** Path-style endpoint, e.g. `http://127.0.0.1:PORT`. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** `s3://BUCKET?endpoint=…&region=…` for STORE_URL. */
  storeUrl: string;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY for an app instance's environment. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startS3Server(bucket = "squeeze-test"): Promise<RunningS3> {
  const dir = await Deno.makeTempDir({ prefix: "s3rver-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, dir, bucket],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = keepTail(child.stderr);
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let port = 0;
  let buffered = "";
  const timeout = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    while (!port) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`s3rver did not start: ${stderr.text() || "(no output)"}`);
      buffered += value;
      const line = buffered.split("\n").find((l) => l.startsWith("{"));
      if (line && buffered.includes("\n")) port = (JSON.parse(line) as { port: number }).port;
    }
  } catch (err) {
    clearTimeout(timeout);
    child.kill("SIGKILL");
    await child.status;
    await stderr.done;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw err;
  }
  clearTimeout(timeout);
  // Keep draining stdout so the child never blocks on a full pipe.
  const stdoutDone = (async () => {
    while (!(await lines.read()).done) { /* discard */ }
  })().catch(() => {});
  const endpoint = `http://127.0.0.1:${port}`;
  const accessKeyId = "S3RVER";
  const secretAccessKey = "S3RVER";
  const region = "us-east-1";
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    region,
    storeUrl: `s3://${bucket}?endpoint=${encodeURIComponent(endpoint)}&region=${region}`,
    env: { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey },
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await stdoutDone;
      await stderr.done;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

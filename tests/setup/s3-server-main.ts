/**
 * Runs s3rver (an S3-compatible test server from npm; stands for AWS S3, Cloudflare R2 or MinIO)
 * in its own process: `deno run -A tests/setup/s3-server-main.ts DIR BUCKET`. Prints
 * `{"port":N}` on stdout once listening; stops on SIGTERM. Started by tests/setup/s3-server.ts.
 */
import S3rver from "s3rver";

const [directory, bucket] = Deno.args;
if (!directory || !bucket) throw new Error("usage: s3-server-main.ts DIR BUCKET");

const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  directory,
  silent: true,
  configureBuckets: [{ name: bucket, configs: [] }],
});
const { port } = await server.run();
console.log(JSON.stringify({ port }));

Deno.addSignalListener("SIGTERM", async () => {
  await server.close();
  Deno.exit(0);
});

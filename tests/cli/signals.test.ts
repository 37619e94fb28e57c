/**
 * Issue 29 (L4): the CLI as a subprocess, stopped by SIGINT or SIGTERM while a result is half written (the server
 * sent its first bytes and then nothing): it exits 130 or 143, removes its temporary file, and leaves the original.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { waitFor } from "../setup/wait-for.ts";
import { fakeJpeg, KEY, stalledResult, startFakeApi } from "./fake-api.ts";
import { withDir } from "./in-process.ts";

const REPO = new URL("../../", import.meta.url).pathname;

const partFiles = async (dir: string) =>
  (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).filter((name) => name.endsWith(".part"));

for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
  Deno.test({
    name: `signals: ${signal} mid-result exits ${code}, leaves no temporary file and the original as it was`,
    ignore: Deno.build.os === "windows",
    async fn() {
      let sent = false;
      const api = startFakeApi((req) => stalledResult(req, 5000, 1000, () => sent = true));
      try {
        await withDir(async (dir) => {
          const original = fakeJpeg(20_000);
          await Deno.mkdir(join(dir, "in"));
          await Deno.writeFile(join(dir, "in", "photo.jpg"), original);
          const child = new Deno.Command(Deno.execPath(), {
            args: ["run", "-A", "cli/main.ts", "compress", join(dir, "in"), "--in-place", "--url", api.url],
            cwd: REPO,
            env: { SQUEEZE_API_KEY: KEY },
            stdout: "piped",
            stderr: "piped",
          }).spawn();
          let out: Deno.CommandOutput | null = null;
          try {
            // The precondition: the result is being written when the signal comes.
            await waitFor(async () => sent && (await partFiles(join(dir, "in"))).length === 1, {
              timeoutMs: 20_000,
              message: "a temporary file beside photo.jpg while its result streams",
            });
            child.kill(signal);
            out = await child.output();
          } finally {
            if (out === null) {
              child.kill("SIGKILL");
              await child.output();
            }
          }
          const stderr = new TextDecoder().decode(out.stderr);
          assert.deepEqual(await partFiles(join(dir, "in")), [], "the temporary file removed");
          assert.deepEqual(await Deno.readFile(join(dir, "in", "photo.jpg")), original);
          assert.equal(out.code, code, stderr);
          assert.match(stderr, signal === "SIGTERM" ? /^Terminated$/m : /^Interrupted$/m);
        });
      } finally {
        await api.close();
      }
    },
  });
}

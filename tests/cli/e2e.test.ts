/**
 * The CLI against the real server process (WORKERS=1, a temp database, the memory store): a user signs
 * up and creates an API key over HTTP, `cli/main.ts compress … --json` runs as a subprocess on a nested
 * folder of fixture JPEGs; then the key is revoked (the run stops with a 401 naming the key), and a
 * closed port is "Cannot reach".
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { API_KEY_PREFIX, API_KEYS_PATHS, type CreatedApiKey } from "../../contract/api-keys.ts";
import { createClient } from "@libsql/client";
import { decodeJpegPixels } from "../../codecs/jpeg/decode.ts";
import { freePort, type RunningServer, startServer } from "../setup/server-process.ts";

const REPO = new URL("../../", import.meta.url).pathname;
const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

/** Input layout: relative path → fixture. */
const LAYOUT: Record<string, string> = {
  "top.jpg": "base.jpg",
  "trip/day1/Progressive.JPEG": "progressive.jpg",
  "trip/grey.jpg": "grayscale.jpg",
};

async function cli(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "cli/main.ts", ...args],
    cwd: REPO,
    env,
    clearEnv: false,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

async function signUpWithKey(server: RunningServer): Promise<{ cookie: string; created: CreatedApiKey }> {
  const origin = { Origin: server.url };
  const register = await fetch(`${server.url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...origin },
    body: JSON.stringify({ username: "cli-user", password: "correct horse" }),
  });
  assert.equal(register.status, 201, await register.clone().text());
  await register.body?.cancel();
  const cookie = (register.headers.get("set-cookie") ?? "").match(/session=[^;]*/)?.[0];
  assert.ok(cookie, "a session cookie");
  const res = await fetch(`${server.url}${API_KEYS_PATHS.list}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, ...origin },
    body: JSON.stringify({ name: "cli e2e" }),
  });
  assert.ok(res.ok, `POST /api/keys: ${res.status} ${await res.clone().text()}`);
  const created = await res.json() as CreatedApiKey;
  assert.ok(created.key.startsWith(API_KEY_PREFIX));
  return { cookie, created };
}

const isJpeg = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8 && b.at(-2) === 0xff && b.at(-1) === 0xd9;

Deno.test({
  name: "CLI e2e: compress a nested folder through the real server; a revoked key; an unreachable server",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cli-e2e-" });
    const server = await startServer({ WORKERS: "1", STORE_URL: "memory:" });
    try {
      const input = join(dir, "photos");
      for (const [rel, fixture] of Object.entries(LAYOUT)) {
        await Deno.mkdir(join(input, rel, ".."), { recursive: true });
        await Deno.copyFile(join(FIXTURES, fixture), join(input, rel));
      }
      await Deno.writeTextFile(join(input, "trip", "notes.txt"), "not an image");
      const { cookie, created } = await signUpWithKey(server);
      const env = { SQUEEZE_API_KEY: created.key, SQUEEZE_API_URL: server.url };
      const out = join(dir, "small");

      const run = await cli(["compress", input, "--out", out, "--json"], env);
      assert.equal(run.code, 0, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
      const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
      const summary = lines.pop();
      assert.deepEqual(
        { type: summary.type, files: summary.files, succeeded: summary.succeeded, failed: summary.failed },
        { type: "summary", files: 3, succeeded: 3, failed: 0 },
      );
      assert.deepEqual(lines.map((l) => l.output).sort(), Object.keys(LAYOUT).map((rel) => join(out, rel)).sort());
      for (const line of lines) {
        assert.equal(line.type, "file");
        assert.equal(line.error, undefined);
        assert.equal(typeof line.jobId, "string");
        const original = await Deno.readFile(line.path);
        const result = await Deno.readFile(line.output);
        assert.ok(isJpeg(result), `${line.output} is a JPEG (SOI … EOI)`);
        assert.ok(result.length <= original.length, `${line.output}: ${result.length} > ${original.length}`);
        assert.equal(line.originalSize, original.length);
        assert.equal(line.compressedSize, result.length);
        const pixels = await decodeJpegPixels(result);
        assert.deepEqual([pixels.width, pixels.height], [line.width, line.height], "it decodes, at the size reported");
      }
      // The inputs are untouched, and nothing but the JPEGs went out.
      for (const [rel, fixture] of Object.entries(LAYOUT)) {
        assert.deepEqual(await Deno.readFile(join(input, rel)), await Deno.readFile(join(FIXTURES, fixture)));
      }
      await assert.rejects(Deno.stat(join(out, "trip", "notes.txt")), Deno.errors.NotFound);

      // The key revoked: the next run stops at its first answer, naming the key by its prefix.
      const revoke = await fetch(`${server.url}${API_KEYS_PATHS.one(created.id)}`, {
        method: "DELETE",
        headers: { Cookie: cookie, Origin: server.url },
      });
      assert.ok(revoke.ok, `DELETE /api/keys/:id: ${revoke.status}`);
      await revoke.body?.cancel();
      const refused = await cli(["compress", input, "--out", join(dir, "again")], env);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /The API key was refused \(401\): /);
      assert.ok(refused.stderr.includes(created.prefix), `the key named: ${refused.stderr}`);
      assert.ok(!refused.stderr.includes(created.key), "never the whole secret");
      await assert.rejects(Deno.stat(join(dir, "again")), Deno.errors.NotFound);

      // Nobody listening.
      const closed = `http://127.0.0.1:${freePort()}`;
      const unreachable = await cli(["compress", input, "--out", join(dir, "never")], {
        ...env,
        SQUEEZE_API_URL: closed,
      });
      assert.notEqual(unreachable.code, 0);
      assert.ok(unreachable.stderr.includes(`Cannot reach ${closed}: `), unreachable.stderr);
    } finally {
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "CLI e2e: --widths and --formats write each photo's web set as a folder with picture.html and manifest.json",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cli-set-" });
    const server = await startServer({ WORKERS: "1", STORE_URL: "memory:" });
    try {
      const { created } = await signUpWithKey(server);
      const db = createClient({ url: server.databaseUrl });
      await db.execute("UPDATE users SET subscription_status = 'active' WHERE username = 'cli-user'");
      db.close();
      await Deno.mkdir(join(dir, "photos", "trip"), { recursive: true });
      await Deno.copyFile(join(FIXTURES, "base.jpg"), join(dir, "photos", "trip", "Beach.jpg"));
      const out = join(dir, "web");
      const run = await cli(
        ["compress", join(dir, "photos"), "--out", out, "--widths", "64,100", "--formats", "webp,jpeg"],
        { SQUEEZE_API_KEY: created.key, SQUEEZE_API_URL: server.url },
      );
      assert.equal(run.code, 0, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
      const folder = join(out, "trip", "Beach");
      const names = [];
      for await (const entry of Deno.readDir(folder)) names.push(entry.name);
      assert.deepEqual(names.sort(), [
        "Beach-100.jpg",
        "Beach-100.webp",
        "Beach-64.jpg",
        "Beach-64.webp",
        "manifest.json",
        "picture.html",
      ]);
      const manifest = JSON.parse(await Deno.readTextFile(join(folder, "manifest.json")));
      for (const file of manifest.files) {
        assert.equal((await Deno.stat(join(folder, file.file))).size, file.bytes, file.file);
      }
      const pixels = await decodeJpegPixels(await Deno.readFile(join(folder, "Beach-64.jpg")));
      assert.deepEqual([pixels.width, pixels.height], [64, 48]);
      assert.match(
        await Deno.readTextFile(join(folder, "picture.html")),
        /srcset="Beach-64\.webp 64w, Beach-100\.webp 100w"/,
      );
    } finally {
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

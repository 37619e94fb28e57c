/** The whole command in process against a fake API: layout, concurrency, failures, a refused key, --in-place. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { V1_HEADERS } from "../../contract/api-keys.ts";
import { freePort } from "../setup/server-process.ts";
import { compressed, fakeJpeg, startFakeApi } from "./fake-api.ts";
import { filesUnder, run, withDir } from "./in-process.ts";

/** `count` fake JPEGs under dir/in, spread over sub-folders, each of a different size. */
async function makeInputs(dir: string, count: number): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const rel = join(i % 2 ? "odd" : "even", i % 3 ? "" : "deep", `p${i}.jpg`);
    await Deno.mkdir(join(dir, "in", rel, ".."), { recursive: true });
    await Deno.writeFile(join(dir, "in", rel), fakeJpeg(1000 + i));
    names.push(rel);
  }
  return names;
}

Deno.test("compress: every file sent at most --concurrency at a time, results in the same layout, --json lines", async () => {
  let inFlight = 0;
  let most = 0;
  const api = startFakeApi(async (req) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 30));
    inFlight--;
    const score = req.bytes.length % 2 ? { "Ssimulacra2-Score": "80.25" } : undefined;
    return compressed(fakeJpeg(Math.floor(req.bytes.length / 4)), req.bytes.length, score);
  });
  try {
    await withDir(async (dir) => {
      const names = await makeInputs(dir, 7);
      const out = join(dir, "out");
      const r = await run([
        "compress",
        join(dir, "in"),
        "--out",
        out,
        "--json",
        "--concurrency",
        "3",
        "--quality",
        "60",
        "--url",
        api.url,
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "");
      assert.equal(most, 3, "three in flight at most, and three used");
      assert.equal(api.requests.length, 7);
      assert.ok(api.requests.every((q) => q.query.get("quality") === "60"));
      assert.deepEqual(await filesUnder(out), [...names].sort(), "no temporary files left");
      const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(lines.length, 8);
      const summary = lines.pop();
      assert.equal(summary.type, "summary");
      assert.equal(summary.files, 7);
      assert.equal(summary.succeeded, 7);
      assert.equal(summary.failed, 0);
      for (const line of lines) {
        assert.equal(line.type, "file");
        const bytes = await Deno.readFile(line.output);
        assert.equal(line.compressedSize, bytes.length);
        assert.equal(line.originalSize, (await Deno.stat(line.path)).size);
        assert.equal(line.width, 64);
        assert.equal(line.height, 48);
        assert.equal(typeof line.jobId, "string");
        assert.equal(line.score, line.originalSize % 2 ? 80.25 : null);
        assert.ok(line.saving > 0.7);
      }
    });
  } finally {
    await api.close();
  }
});

Deno.test("compress: a failing file fails alone: the others are written, the count is given, exit 1", async () => {
  const api = startFakeApi((req) =>
    req.bytes.length === 1002
      ? Response.json({ error: "'p2.jpg': not a JPEG" }, { status: 415 })
      : compressed(fakeJpeg(500), req.bytes.length)
  );
  try {
    await withDir(async (dir) => {
      await makeInputs(dir, 4);
      const r = await run(["compress", join(dir, "in"), "--out", join(dir, "out"), "--url", api.url]);
      assert.equal(r.code, 1);
      assert.match(r.stdout, /even\/p2\.jpg {2}failed: 'p2\.jpg': not a JPEG \(415\)\n/);
      assert.match(r.stdout, /p1\.jpg {2}1001 B → 500 B {2}-50%\n/);
      assert.match(r.stdout, /^3 files {2}2\.9 KB → 1\.5 KB {2}-50% {2}1 failed$/m);
      assert.equal(r.stderr, "1 of 4 files failed\n");
      assert.equal((await filesUnder(join(dir, "out"))).length, 3);
    });
  } finally {
    await api.close();
  }
});

Deno.test("compress: a refused key stops the run at once, naming the key", async () => {
  const api = startFakeApi(() => Response.json({ error: "This API key was revoked" }, { status: 401 }));
  try {
    await withDir(async (dir) => {
      await makeInputs(dir, 12);
      const r = await run(["compress", join(dir, "in"), "--out", join(dir, "out"), "--url", api.url]);
      assert.equal(r.code, 1);
      assert.ok(api.requests.length <= 2, `${api.requests.length} requests: no more after the 401`);
      assert.match(r.stderr, /^The API key was refused \(401\): This API key was revoked \(key sq_live_012345…\)\n$/);
      assert.match(r.stdout, /^0 files {2}0 B → 0 B {2}12 not sent\n$/);
      await assert.rejects(Deno.stat(join(dir, "out")), Deno.errors.NotFound, "nothing written");
    });
  } finally {
    await api.close();
  }
});

Deno.test("compress: an unreachable server: 'Cannot reach', exit 1, and --json still ends with a summary", async () => {
  await withDir(async (dir) => {
    await makeInputs(dir, 3);
    const url = `http://127.0.0.1:${freePort()}`;
    const r = await run(["compress", join(dir, "in"), "--out", join(dir, "out"), "--json", "--url", url]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`Cannot reach ${url.replaceAll(".", "\\.")}: .*refused`, "i"));
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 1);
    assert.equal(lines[0].type, "summary");
    assert.match(lines[0].error, /^Cannot reach/);
  });
});

Deno.test("compress: --in-place replaces each input with its result", async () => {
  const api = startFakeApi((req) => compressed(fakeJpeg(100 + (req.bytes.length % 10)), req.bytes.length));
  try {
    await withDir(async (dir) => {
      const names = await makeInputs(dir, 3);
      await Deno.chmod(join(dir, "in", names[1]!), 0o600);
      const r = await run(["compress", join(dir, "in"), "--in-place", "--url", api.url]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(await filesUnder(join(dir, "in")), [...names].sort(), "no temporary files left");
      for (const [i, rel] of names.entries()) {
        assert.equal((await Deno.readFile(join(dir, "in", rel))).length, 100 + ((1000 + i) % 10));
      }
      assert.equal((await Deno.stat(join(dir, "in", names[1]!))).mode! & 0o777, 0o600, "its permissions kept");
    });
  } finally {
    await api.close();
  }
});

Deno.test("compress: usage errors exit 2 with the short usage; nothing to do exits 1", async () => {
  await withDir(async (dir) => {
    await makeInputs(dir, 1);
    const noKey = await run(["compress", join(dir, "in"), "--out", join(dir, "out")], {});
    assert.equal(noKey.code, 2);
    assert.match(
      noKey.stderr,
      /^squeeze: No API key: set SQUEEZE_API_KEY or pass --key .*\nUsage: squeeze compress PATH\.\.\./,
    );
    const overInputs = await run(["compress", join(dir, "in"), "--out", join(dir, "in")]);
    assert.equal(overInputs.code, 2);
    assert.match(overInputs.stderr, /is the input folder/);
    await Deno.mkdir(join(dir, "empty"));
    const empty = await run(["compress", join(dir, "empty"), "--out", join(dir, "out")]);
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /^squeeze: No \.jpg or \.jpeg files in /);
    const help = await run(["--help"], {});
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--concurrency N/);
  });
});

Deno.test("compress: a result cut off mid-body fails its file and leaves the original and no temporary file", async () => {
  // A raw socket: a 200 announcing 1000 bytes, 5 sent, then the connection closed.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    for await (const conn of listener) {
      const buf = new Uint8Array(64 * 1024);
      await conn.read(buf); // the request's head (the body may still be coming: it is not waited for)
      await conn.write(
        new TextEncoder().encode(
          "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 1000\r\n" +
            `${V1_HEADERS.compressedSize}: 1000\r\n${V1_HEADERS.jobId}: j1\r\n\r\n\xff\xd8abc`,
        ),
      ).catch(() => {});
      await new Promise((r) => setTimeout(r, 20));
      conn.close();
    }
  })();
  try {
    await withDir(async (dir) => {
      const names = await makeInputs(dir, 1);
      const before = await Deno.readFile(join(dir, "in", names[0]!));
      const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
      const r = await run(["compress", join(dir, "in"), "--in-place", "--url", url]);
      assert.equal(r.code, 1);
      assert.match(
        r.stdout,
        /p0\.jpg {2}failed: The server's answer broke off after \d+ of the 1000 bytes its Compressed-Size announced \(.+\); 'p0\.jpg' was left untouched\n/,
      );
      assert.deepEqual(await filesUnder(join(dir, "in")), names);
      assert.deepEqual(await Deno.readFile(join(dir, "in", names[0]!)), before);
    });
  } finally {
    listener.close();
    await served.catch(() => {});
  }
});

Deno.test("compress: --format auto names each result by the format that came (a kept original stays .jpg)", async () => {
  const webp = new Uint8Array([
    ...new TextEncoder().encode("RIFF"),
    0x24,
    0,
    0,
    0,
    ...new TextEncoder().encode("WEBPVP8 "),
  ]);
  const api = startFakeApi((req) =>
    req.bytes.length === 1001
      ? compressed(webp, req.bytes.length, { "Content-Type": "image/webp" })
      : compressed(req.bytes, req.bytes.length)
  );
  try {
    await withDir(async (dir) => {
      await makeInputs(dir, 2);
      const out = join(dir, "out");
      const args = ["compress", join(dir, "in"), "--out", out, "--format", "auto", "--formats", "webp,jpeg"];
      const r = await run([...args, "--url", api.url]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(api.requests.every((q) => q.query.get("format") === "auto" && q.query.get("formats") === "webp,jpeg"));
      assert.deepEqual(await filesUnder(out), ["even/deep/p0.jpg", "odd/p1.webp"]);
      assert.deepEqual(await Deno.readFile(join(out, "odd/p1.webp")), webp);
    });
  } finally {
    await api.close();
  }
});

Deno.test("restore: each .jxl goes to /api/v1/restore and its JPEG is written as NAME.jpg under --out", async () => {
  const api = startFakeApi((req) => {
    const jpeg = fakeJpeg(req.bytes.length * 2);
    return new Response(jpeg, {
      headers: {
        "Content-Type": "image/jpeg",
        [V1_HEADERS.originalSize]: String(req.bytes.length),
        [V1_HEADERS.compressedSize]: String(jpeg.length),
      },
    });
  });
  try {
    await withDir(async (dir) => {
      await Deno.mkdir(join(dir, "in", "old"), { recursive: true });
      await Deno.writeFile(join(dir, "in", "a.jxl"), new Uint8Array([0xff, 0x0a, 1, 2, 3]));
      await Deno.writeFile(join(dir, "in", "old", "b.JXL"), new Uint8Array([0xff, 0x0a, 1, 2, 3, 4]));
      await Deno.writeFile(join(dir, "in", "skip.jpg"), fakeJpeg(40));
      const out = join(dir, "out");
      const r = await run(["restore", join(dir, "in"), "--out", out, "--url", api.url]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(api.requests.map((q) => q.path).sort(), ["/api/v1/restore", "/api/v1/restore"]);
      assert.ok(api.requests.every((q) => [...q.query.keys()].length === 0), "no settings");
      assert.deepEqual(await filesUnder(out), ["a.jpg", "old/b.jpg"]);
      assert.equal((await Deno.readFile(join(out, "a.jpg"))).length, 10);
    });
  } finally {
    await api.close();
  }
});

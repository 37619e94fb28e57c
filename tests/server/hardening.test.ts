/** Issue 12's findings, each reproduced: what one client must not be able to do to the server or to others. */
import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { createTestApp, jsonInit, signUp, type TestApp, upload, waitForJobs } from "../setup/app-harness.ts";
import { HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { CodecError } from "../../codecs/mod.ts";

const MB = 1024 * 1024;
const encoder = new TextEncoder();

/** A request body made on demand from `chunks`, counting what the server actually pulled. */
function countedBody(chunks: Iterable<Uint8Array>) {
  const it = chunks[Symbol.iterator]();
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = it.next();
      if (next.done) return controller.close();
      counter.pulled += next.value.byteLength;
      controller.enqueue(next.value);
    },
  });
  return { stream, counter };
}

function* repeat(chunk: Uint8Array, totalBytes: number) {
  for (let sent = 0; sent < totalBytes; sent += chunk.byteLength) yield chunk;
}

const BOUNDARY = "----hardening-test";
const multipartType = `multipart/form-data; boundary=${BOUNDARY}`;

function* multipart(parts: Iterable<{ name: string; filename?: string; bytes: () => Iterable<Uint8Array> }>) {
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ""}`;
    const type = part.filename ? "\r\nContent-Type: image/jpeg" : "";
    yield encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`);
    yield* part.bytes();
    yield encoder.encode("\r\n");
  }
  yield encoder.encode(`--${BOUNDARY}--\r\n`);
}

/** A JPEG-looking file of exactly `size` bytes, produced in 64 KB chunks. */
function* jpegBytes(size: number) {
  const chunk = new Uint8Array(64 * 1024);
  yield Uint8Array.of(0xff, 0xd8, 0xff, 0xfe);
  for (let left = size - 4; left > 0; left -= chunk.byteLength) {
    yield chunk.subarray(0, Math.min(left, chunk.byteLength));
  }
}

/** The exact length of a body, as a browser would declare it. */
function lengthOf(chunks: Iterable<Uint8Array>): number {
  let n = 0;
  for (const chunk of chunks) n += chunk.byteLength;
  return n;
}

function post(t: TestApp, path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return t.request(path, { method: "POST", headers, body, duplex: "half" } as RequestInit);
}

async function setup(options: Parameters<typeof createTestApp>[0] = {}) {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor, ...options });
  const { cookie } = await signUp(t);
  return { t, cookie, compressor };
}

// ---- 1. JSON bodies ---------------------------------------------------------------

Deno.test("[regression] POST /api/login refuses a 300 MB body from its Content-Length without reading it (413)", async () => {
  const t = await createTestApp();
  const { stream, counter } = countedBody(repeat(new Uint8Array(MB), 300 * MB));
  const res = await post(t, "/api/login", stream, {
    "Content-Type": "application/json",
    "Content-Length": String(300 * MB),
  });
  assert.equal(res.status, 413);
  assert.match((await res.json()).error, /larger than 64 KB/);
  assert.ok(counter.pulled <= MB, `read ${counter.pulled} bytes`);
  await t.close();
});

Deno.test("[regression] a chunked JSON body is cut off at 64 KB, never buffered whole (413)", async () => {
  const t = await createTestApp();
  for (const path of ["/api/login", "/api/register", "/api/contact"]) {
    const { stream, counter } = countedBody(repeat(new Uint8Array(16 * 1024).fill(0x20), 300 * MB));
    const res = await post(t, path, stream, { "Content-Type": "application/json" });
    assert.equal(res.status, 413, path);
    assert.ok(counter.pulled < 200 * 1024, `${path} read ${counter.pulled} bytes`);
  }
  await t.close();
});

Deno.test("a malformed Content-Length is refused with 400", async () => {
  const t = await createTestApp();
  const { stream } = countedBody([encoder.encode("{}")]);
  const res = await post(t, "/api/login", stream, { "Content-Type": "application/json", "Content-Length": "12abc" });
  assert.equal(res.status, 400);
  await t.close();
});

// ---- 2, 3. multipart bounded while streaming ---------------------------------------------

Deno.test("[regression] an upload with a million text fields is refused at the 41st, not read to its end (400)", async () => {
  const { t, cookie } = await setup();
  const fields = function* () {
    for (let i = 0; i < 1_000_000; i++) yield { name: `f${i}`, bytes: () => [encoder.encode("x")] };
  };
  const { stream, counter } = countedBody(multipart(fields()));
  const res = await post(t, "/api/compress", stream, { Cookie: cookie, "Content-Type": multipartType });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /more than 40 form fields/);
  assert.ok(counter.pulled < 256 * 1024, `read ${counter.pulled} bytes`);
  await t.close();
});

Deno.test("a long text field is refused (400)", async () => {
  const { t, cookie } = await setup();
  const parts = [{ name: "quality", bytes: () => [new Uint8Array(5000).fill(0x31)] }];
  const { stream } = countedBody(multipart(parts));
  const res = await post(t, "/api/compress", stream, { Cookie: cookie, "Content-Type": multipartType });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /'quality' is longer than 4096 bytes/);
  await t.close();
});

Deno.test("[regression] a free upload of 25 × 10 MB is refused at its 11th file, not read to its 25th (429)", async () => {
  const { t, cookie } = await setup();
  const files = function* () {
    for (let i = 0; i < 25; i++) {
      yield {
        name: "images",
        filename: `p${i}.jpg`,
        bytes: () => jpegBytes(10 * MB - 1024),
      };
    }
  };
  const { stream, counter } = countedBody(multipart(files()));
  const res = await post(t, "/api/compress", stream, { Cookie: cookie, "Content-Type": multipartType });
  assert.equal(res.status, 429);
  // A part is parsed once it has fully arrived: the 11th file is read, then refused.
  assert.ok(counter.pulled < 12 * 10 * MB, `read ${counter.pulled / MB} MB`);
  assert.equal(t.compression.heldBytes, 0, "nothing stays reserved");
  await t.close();
});

Deno.test("[regression] a file past the plan's per-file limit is cut off as soon as it passes it (413)", async () => {
  const { t, cookie } = await setup();
  const parts = [{ name: "images", filename: "huge.jpg", bytes: () => jpegBytes(200 * MB) }];
  const { stream, counter } = countedBody(multipart(parts));
  const res = await post(t, "/api/compress", stream, { Cookie: cookie, "Content-Type": multipartType });
  assert.equal(res.status, 413);
  assert.ok(counter.pulled < 11 * MB, `read ${counter.pulled / MB} MB`);
  await t.close();
});

Deno.test("a free account with no compressions left is refused before its body is read (429)", async () => {
  const { t, cookie, compressor } = await setup();
  assert.equal((await upload(t, cookie, Array.from({ length: 10 }, (_, i) => taggedFile(`a${i}`)))).status, 201);
  const { stream, counter } = countedBody(
    multipart([{ name: "images", filename: "x.jpg", bytes: () => jpegBytes(MB) }]),
  );
  const res = await post(t, "/api/compress", stream, { Cookie: cookie, "Content-Type": multipartType });
  assert.equal(res.status, 429);
  assert.ok(counter.pulled < 128 * 1024, `read ${counter.pulled} bytes`);
  (await compressor.started(1)).forEach((c) => c.finish());
  await t.close();
});

// ---- 7. the store cap holds under concurrency -----------------------------------------------------------

Deno.test("[regression] 12 parallel 8 MiB uploads never store more than a 50 MiB cap", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor, maxStoreBytes: 50 * MB });
  const cookies: string[] = [];
  for (let i = 0; i < 12; i++) cookies.push((await signUp(t, `user${i}`)).cookie);
  let peak = 0;
  const watch = setInterval(() => peak = Math.max(peak, t.compression.heldBytes), 1);
  const parts = (i: number) => multipart([{ name: "images", filename: `${i}.jpg`, bytes: () => jpegBytes(8 * MB) }]);
  // As browsers send them: with a Content-Length, so room is reserved for the whole body at once.
  const results = await Promise.all(cookies.map((cookie, i) => {
    const { stream } = countedBody(parts(i));
    const length = String(lengthOf(parts(i)));
    return post(t, "/api/compress", stream, {
      Cookie: cookie,
      "Content-Type": multipartType,
      "Content-Length": length,
    });
  }));
  clearInterval(watch);
  const accepted = results.filter((r) => r.status === 201).length;
  assert.equal(accepted, 6, "as many as fit are accepted; the rest are told to come back");
  assert.ok(results.every((r) => r.status === 201 || r.status === 503));
  assert.ok(t.compression.heldBytes <= 50 * MB, `${t.compression.heldBytes / MB} MiB held`);
  assert.ok(peak <= 50 * MB, `peak ${peak / MB} MiB`);
  await Promise.all(results.map((r) => r.body?.cancel()));

  // Chunked bodies (no length) reserve as they arrive: the cap holds all the same.
  peak = 0;
  const more = await Promise.all(cookies.map((cookie, i) => {
    const { stream } = countedBody(parts(i));
    return post(t, "/api/compress", stream, { Cookie: cookie, "Content-Type": multipartType });
  }));
  assert.ok(more.every((r) => r.status === 201 || r.status === 503 || r.status === 429));
  assert.ok(t.compression.heldBytes <= 50 * MB);
  await Promise.all(more.map((r) => r.body?.cancel()));
  await t.close();
});

// ---- 8. stalled bodies ---------------------------------------------------------------------------------------

Deno.test("[regression] a body that stops arriving is answered 408 after the read timeout (real socket)", async () => {
  const t = await createTestApp({ bodyIdleMs: 300 });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, t.app.fetch);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  try {
    await conn.write(encoder.encode(
      "POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
    ));
    const started = performance.now();
    const buf = new Uint8Array(4096);
    const n = await conn.read(buf);
    const head = new TextDecoder().decode(buf.subarray(0, n ?? 0));
    assert.match(head, /^HTTP\/1\.1 408/);
    const waited = performance.now() - started;
    assert.ok(waited >= 250 && waited < 3000, `answered after ${waited} ms`);
  } finally {
    conn.close();
    await server.shutdown();
    await t.close();
  }
});

// ---- 4. work a free account can cause ---------------------------------------------------------------------

Deno.test("[regression] failed jobs give their unit back at most 10 times a day, then count", async () => {
  const { t, cookie, compressor } = await setup();
  const fail = async (n: number, from: number) => {
    const files = Array.from({ length: n }, (_, i) => taggedFile(`bad${from + i}`));
    assert.equal((await upload(t, cookie, files)).status, 201);
    for (let done = 0; done < n; done++) {
      const [call] = (await compressor.started(from + done + 1)).slice(-1);
      call!.fail(new CodecError("corrupt_image", "Cannot decode the image"));
    }
    await waitForJobs(t, cookie, (jobs) => jobs.filter((j) => j.status === "error").length === from + n);
  };
  const used = async () => (await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json()).used;
  await fail(10, 0);
  assert.equal(await used(), 0, "the first 10 failures are refunded");
  await fail(10, 10);
  assert.equal(await used(), 10, "later failures keep their unit");
  assert.equal((await upload(t, cookie, [taggedFile("more")])).status, 429);
  await t.close();
});

// ---- 9. names from users ----------------------------------------------------------------------------------

Deno.test("[regression] names from users are stored, zipped and sent back only in a safe form", async () => {
  const t = await createTestApp({ pool: 1 });
  const { cookie } = await signUp(t);
  const jpeg = await Deno.readFile(new URL("../fixtures/base.jpg", import.meta.url));
  const names = [
    "../../../../tmp/evil.jpg",
    "/etc/cron.d/evil.jpg",
    "C:\\Windows\\evil.jpg",
    `${"a".repeat(7000)}.jpg`,
    "inv\u0000oice\u202egpj.exe.jpg",
    "page.html",
  ];
  const res = await upload(t, cookie, names.map((n) => new File([jpeg], n, { type: "image/jpeg" })));
  assert.equal(res.status, 201);
  const { jobs, batch } = await res.json();
  const stored = jobs.map((j: { filename: string }) => j.filename);
  for (const name of stored) {
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(name, /[/\\\u0000-\u001f\u202a-\u202e]|\.\./, name);
    assert.ok(name.length <= 130, `${name.length} characters`);
  }
  assert.deepEqual(stored.slice(0, 2), ["evil.jpg", "evil.jpg"]);
  assert.match(stored[2], /evil\.jpg$/);
  await waitForJobs(t, cookie, (js) => js.every((j) => j.status === "completed"));

  const html = jobs[5].id;
  const preview = await t.request(`/api/preview/${html}`, { headers: { Cookie: cookie } });
  assert.match(preview.headers.get("content-disposition")!, /filename="page\.html\.jpg"/);
  await preview.body?.cancel();
  const long = await t.request(`/api/download/${jobs[3].id}`, { headers: { Cookie: cookie } });
  assert.ok(long.headers.get("content-disposition")!.length < 600);
  await long.body?.cancel();

  const zip = await t.request(`/api/batches/${batch.id}/download.zip`, { headers: { Cookie: cookie } });
  const entries = Object.keys(unzipSync(new Uint8Array(await zip.arrayBuffer())));
  assert.equal(new Set(entries).size, names.length, "unique entries");
  for (const entry of entries) {
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(entry, /[/\\]|^\.|\u0000|\u202e/, entry);
    assert.match(entry, /\.jpg$/);
  }
  // Same-named files of one upload: told apart by their place in it, never "(2)" (issue 24, item 4).
  assert.ok(entries.includes("evil.jpg") && entries.includes("evil.file2.jpg"), entries.join());
  await t.close();
});

// ---- 10. malformed URLs ----------------------------------------------------------------------------------

Deno.test("[regression] malformed percent-encoding answers 400, not 500", async () => {
  const dist = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dist}/index.html`, "<!doctype html>");
  const t = await createTestApp({ webDist: dist });
  for (const path of ["/%zz", "/assets/%ff.js", "/articles/%E0%A4%A"]) {
    const res = await t.request(path);
    assert.equal(res.status, 400, path);
    await res.body?.cancel();
  }
  await t.close();
});

// ---- 11. polling --------------------------------------------------------------------------------------------

Deno.test("[regression] one session flooding GET /api/jobs gets 429 while another session is served", async () => {
  const t = await createTestApp({ pollBudget: { burst: 5, perSecond: 1 } });
  const flooder = (await signUp(t, "flood")).cookie;
  const other = (await signUp(t, "calm")).cookie;
  const statuses = [];
  for (let i = 0; i < 8; i++) {
    const res = await t.request("/api/jobs", { headers: { Cookie: flooder } });
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
  const refused = await t.request("/api/jobs", { headers: { Cookie: flooder } });
  assert.ok(Number(refused.headers.get("retry-after")) >= 1);
  await refused.body?.cancel();
  assert.equal((await t.request("/api/jobs", { headers: { Cookie: other } })).status, 200);
  await t.close();
});

// ---- 12. accounts and sessions -------------------------------------------------------------------------------

Deno.test("[regression] registration is limited per address", async () => {
  const t = await createTestApp({ registrationsPerHour: 3 });
  const from = (ip: string) => ({ remoteAddr: { hostname: ip } });
  for (let i = 0; i < 3; i++) {
    const res = await t.request(
      "/api/register",
      jsonInit("POST", { username: `user${i}`, password: "correct horse" }),
      from("203.0.113.1"),
    );
    assert.equal(res.status, 201);
  }
  const fourth = await t.request(
    "/api/register",
    jsonInit("POST", { username: "user4", password: "correct horse" }),
    from("203.0.113.1"),
  );
  assert.equal(fourth.status, 429);
  assert.ok(Number(fourth.headers.get("retry-after")) > 0);
  const elsewhere = await t.request(
    "/api/register",
    jsonInit("POST", { username: "user5", password: "correct horse" }),
    from("203.0.113.2"),
  );
  assert.equal(elsewhere.status, 201);
  await t.close();
});

Deno.test("[regression] POST /api/register refuses the most common passwords (400)", async () => {
  const t = await createTestApp();
  for (const password of ["12345678", "password", "Password1", "qwertyuiop"]) {
    const res = await t.request("/api/register", jsonInit("POST", { username: "bob", password }));
    assert.equal(res.status, 400, password);
    assert.match((await res.json()).error, /most common passwords/);
  }
  assert.equal(
    (await t.request("/api/register", jsonInit("POST", { username: "bob", password: "tulip ledger 42" }))).status,
    201,
  );
  await t.close();
});

Deno.test("POST /api/logout-others ends the user's other sessions and keeps this one", async () => {
  const t = await createTestApp();
  const { cookie: first } = await signUp(t);
  const login = await t.request("/api/login", jsonInit("POST", { username: "alice", password: "correct horse" }));
  const second = login.headers.get("set-cookie")!.split(";")[0]!;
  const res = await t.request("/api/logout-others", jsonInit("POST", {}, { Cookie: second }));
  assert.deepEqual(await res.json(), { success: true, ended: 1 });
  assert.equal(await (await t.request("/api/user", { headers: { Cookie: first } })).json(), null);
  assert.equal((await (await t.request("/api/user", { headers: { Cookie: second } })).json()).username, "alice");
  await t.close();
});

Deno.test("HSTS is sent only when the public URL is https", async () => {
  const https = await createTestApp({ secureCookies: true });
  assert.match((await https.request("/healthz")).headers.get("strict-transport-security") ?? "", /max-age=63072000/);
  await https.close();
  const http = await createTestApp();
  assert.equal((await http.request("/healthz")).headers.get("strict-transport-security"), null);
  await http.close();
});

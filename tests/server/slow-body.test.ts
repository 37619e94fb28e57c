/** Bodies that trickle: every body has a deadline for the whole of it, not only an idle timeout (ADR 022). */
import assert from "node:assert/strict";
import { PLANS } from "../../contract/plans.ts";
import { uploadBytesAllowed } from "../../server/app.ts";
import { BODY_DEADLINES, formatDuration, meterRequest, uploadDeadlineMs } from "../../server/middleware/body-guard.ts";
import { createTestApp, jsonInit, makePremium, signUp, type TestApp } from "../setup/app-harness.ts";
import { HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { waitFor } from "../setup/wait-for.ts";

const MB = 1024 * 1024;
const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** POST a body that arrives as the stream gives it. */
const postStream = (t: TestApp, path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  t.request(path, { method: "POST", headers, body, duplex: "half" } as RequestInit);
const JSON_TYPE = { "Content-Type": "application/json" };

// ---- the numbers -----------------------------------------------------------------------------------------

Deno.test("a JSON body has 10 s; an upload 60 s plus its plan's largest upload at 512 KB/s, at most 10 minutes", () => {
  assert.equal(BODY_DEADLINES.smallMs, 10_000);
  assert.equal(uploadBytesAllowed(PLANS.free), 200 * MB, "20 files × 10 MB");
  assert.equal(uploadBytesAllowed(PLANS.premium), 256 * MB, "100 × 25 MB, within the 256 MB request cap");
  assert.equal(uploadDeadlineMs(uploadBytesAllowed(PLANS.free)), 460_000);
  assert.equal(uploadDeadlineMs(uploadBytesAllowed(PLANS.premium)), 572_000);
  assert.equal(uploadDeadlineMs(10_000 * MB), 600_000, "capped");
  assert.equal(uploadDeadlineMs(0), 60_000);
  const injected = { smallMs: 1, uploadBaseMs: 1000, uploadBytesPerSecond: MB, uploadMaxMs: 5000 };
  assert.equal(uploadDeadlineMs(2 * MB, injected), 3000);
  assert.equal(uploadDeadlineMs(10 * MB, injected), 5000);
});

Deno.test("deadlines read as people say them", () => {
  assert.equal(formatDuration(10_000), "10 s");
  assert.equal(formatDuration(1_000), "1 s");
  assert.equal(formatDuration(1_280), "1.3 s");
  assert.equal(formatDuration(460_000), "7 min 40 s");
  assert.equal(formatDuration(600_000), "10 min");
});

// ---- a trickling JSON body over a real socket ------------------------------------------------------------

/** Reads one HTTP/1.1 response (headers and a Content-Length body) from a raw connection. */
async function readResponse(conn: Deno.Conn): Promise<{ status: number; head: string; body: string }> {
  const decoder = new TextDecoder();
  let text = "";
  const buf = new Uint8Array(4096);
  for (;;) {
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) {
      const head = text.slice(0, end);
      const length = Number(head.match(/content-length: *(\d+)/i)?.[1] ?? 0);
      const body = text.slice(end + 4);
      if (encoder.encode(body).byteLength >= length) {
        return { status: Number(head.match(/^HTTP\/1\.1 (\d{3})/)?.[1]), head, body };
      }
    }
    const n = await conn.read(buf);
    if (n === null) throw new Error(`The connection closed mid-response: ${JSON.stringify(text)}`);
    text += decoder.decode(buf.subarray(0, n), { stream: true });
  }
}

function served(t: TestApp) {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, t.app.fetch);
  return { server, url: `http://127.0.0.1:${server.addr.port}` };
}

Deno.test("[regression] a JSON body sent a byte every 200 ms is answered 408 at its deadline; /healthz stays fast", async () => {
  const t = await createTestApp({ bodyDeadlines: { smallMs: 1000 } });
  const { server, url } = served(t);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  const body = encoder.encode(JSON.stringify({ username: "alice", password: "x".repeat(200) }));
  let trickling = true;
  let sent = 0;
  try {
    await conn.write(encoder.encode(
      `POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.byteLength}\r\n\r\n`,
    ));
    const started = performance.now();
    // One byte every 200 ms: never idle long, and about 45 s for the whole body.
    const sender = (async () => {
      for (let i = 0; trickling && i < body.byteLength; i++) {
        await conn.write(body.subarray(i, i + 1));
        sent++;
        await sleep(200);
      }
    })().catch(() => {/* the server hung up */});
    let answered = false;
    const response = readResponse(conn).then((r) => {
      answered = true;
      return { ...r, at: performance.now() - started };
    });

    // Ask while the body is trickling: some of it sent, no answer yet.
    await waitFor(() => sent >= 3, { message: "3 bytes of the body to be sent" });
    assert.ok(!answered, "the body is still arriving");
    const healthStarted = performance.now();
    const health = await fetch(`${url}/healthz`);
    const healthMs = performance.now() - healthStarted;
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { ok: true });
    assert.ok(healthMs < 200, `/healthz took ${healthMs.toFixed(0)} ms while a body trickled`);
    assert.ok(!answered, "/healthz answered before the trickling request's deadline");

    const { status, head, body: text, at } = await response;
    assert.equal(status, 408);
    assert.match(head, /content-type: application\/json/i);
    assert.deepEqual(JSON.parse(text), {
      error: "The request body took too long to arrive (over 1 s); please try again",
    });
    assert.ok(at >= 900 && at < 2500, `answered after ${at.toFixed(0)} ms`);
    // Deno keeps the socket itself open until the client ends it (ADR 022); the app holds nothing for it.
    const again = await fetch(`${url}/healthz`);
    assert.equal(again.status, 200);
    await again.body?.cancel();
    trickling = false;
    await sender;
  } finally {
    trickling = false;
    try {
      conn.close();
    } catch { /* already closed */ }
    await server.shutdown();
    await t.close();
  }
});

Deno.test("requests under the small deadline work as before: at once, and a body sent in pieces within it", async () => {
  const t = await createTestApp({ bodyDeadlines: { smallMs: 1000 } });
  await signUp(t, "alice", "correct horse");
  const login = await t.request("/api/login", jsonInit("POST", { username: "alice", password: "correct horse" }));
  assert.equal(login.status, 200);
  await login.body?.cancel();

  const pieces = encoder.encode(JSON.stringify({ username: "alice", password: "correct horse" }));
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i >= pieces.byteLength) return controller.close();
      await sleep(100);
      controller.enqueue(pieces.subarray(i, i += 10));
    },
  }); // 5 pieces over about 500 ms
  const res = await postStream(t, "/api/login", body, JSON_TYPE);
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  await t.close();
});

Deno.test("[regression] at the deadline the body's stream is cancelled and the handler gets 408 (in process)", async () => {
  const t = await createTestApp({ bodyDeadlines: { smallMs: 300 } });
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await sleep(50);
      controller.enqueue(encoder.encode(" "));
    },
    cancel() {
      cancelled = true;
    },
  });
  const started = performance.now();
  const res = await postStream(t, "/api/contact", body, JSON_TYPE);
  assert.equal(res.status, 408);
  assert.equal(res.headers.get("connection"), "close");
  assert.match((await res.json()).error, /took too long to arrive \(over 0\.3 s\)/);
  const ms = performance.now() - started;
  assert.ok(ms >= 250 && ms < 6000, `answered after ${ms.toFixed(0)} ms`);
  assert.ok(cancelled, "the client's stream is cancelled");
  await t.close();
});

// ---- uploads get their own, longer deadline, by plan ------------------------------------------------------

const BOUNDARY = "----slow-body-test";

/**
 * A one-file multipart body that pauses `pauseMs` in the middle of the file, or with `Infinity`
 * sends nothing more than a trickle that never completes the file.
 */
async function slowUpload(pauseMs: number, onCancel = () => {}): Promise<ReadableStream<Uint8Array>> {
  const file = new Uint8Array(await taggedFile("a", "a.jpg", 4096).arrayBuffer());
  const chunks = [
    encoder.encode(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="images"; filename="a.jpg"\r\n` +
        `Content-Type: image/jpeg\r\n\r\n`,
    ),
    file.subarray(0, 2048),
    file.subarray(2048),
    encoder.encode(`\r\n--${BOUNDARY}--\r\n`),
  ];
  let sent = 0;
  let trickled = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === 2 && pauseMs === Infinity) {
        // One byte of the file every 50 ms: never idle, never done.
        await sleep(50);
        return controller.enqueue(file.subarray(2048 + trickled % 1024, 2048 + trickled++ % 1024 + 1));
      }
      if (sent === 2) await sleep(pauseMs);
      const chunk = chunks[sent++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
    cancel: onCancel,
  });
}

async function uploadSlowly(t: TestApp, cookie: string, pauseMs: number) {
  let cancelled = false;
  const stream = await slowUpload(pauseMs, () => cancelled = true);
  const started = performance.now();
  const res = await postStream(t, "/api/compress", stream, {
    Cookie: cookie,
    "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
  });
  return { res, ms: performance.now() - started, cancelled: () => cancelled };
}

// Free: 200 MB at 200 MB/s = 1 s; Premium: 256 MB = 1.28 s; JSON 0.2 s.
const UPLOAD_TEST_DEADLINES = { smallMs: 200, uploadBaseMs: 0, uploadBytesPerSecond: 200 * MB, uploadMaxMs: 60_000 };

Deno.test("an upload may take longer than the small deadline: its own comes from the plan's largest upload", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor, bodyDeadlines: UPLOAD_TEST_DEADLINES });
  const { cookie } = await signUp(t);
  const { res, ms } = await uploadSlowly(t, cookie, 500);
  assert.equal(res.status, 201, await res.clone().text());
  assert.ok(ms >= 450, `the body took ${ms.toFixed(0)} ms, past the 200 ms JSON deadline`);
  await res.body?.cancel();
  (await compressor.started(1)).forEach((c) => c.finish());
  await t.close();
});

Deno.test("[regression] an upload still arriving at its plan's deadline is answered 408 and its reservation released", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor, bodyDeadlines: UPLOAD_TEST_DEADLINES });
  const free = (await signUp(t, "free")).cookie;
  const premium = (await signUp(t, "rich")).cookie;
  await makePremium(t, "rich");

  const [a, b] = await Promise.all([uploadSlowly(t, free, Infinity), uploadSlowly(t, premium, Infinity)]);
  assert.equal(a.res.status, 408);
  assert.equal(a.res.headers.get("connection"), "close");
  assert.deepEqual(await a.res.json(), {
    error: "The request body took too long to arrive (over 1 s); please try again",
  });
  assert.ok(a.ms >= 900 && a.ms < 6000, `free answered after ${a.ms.toFixed(0)} ms`);
  assert.equal(b.res.status, 408);
  assert.match((await b.res.json()).error, /over 1\.3 s/);
  assert.ok(b.ms >= 1200 && b.ms < 6000, `premium answered after ${b.ms.toFixed(0)} ms`);
  assert.ok(a.cancelled() && b.cancelled(), "both bodies' streams are cancelled");
  assert.equal(t.compression.heldBytes, 0, "nothing stays reserved");
  assert.equal(compressor.calls.length, 0);
  await t.close();
});

// ---- a buffered body does not hold the server's thread ------------------------------------------------------

Deno.test("a body already in memory is read with turns for other work: a timer that is due runs before its end", async () => {
  const chunk = new Uint8Array(16 * 1024).fill(7);
  const total = 4096 * chunk.byteLength; // 64 MiB in 4,096 chunks, all there at once
  const request = new Request("http://localhost/upload", {
    method: "POST",
    body: new ReadableStream({
      start(controller) {
        for (let i = 0; i < 4096; i++) controller.enqueue(chunk);
        controller.close();
      },
    }),
    duplex: "half",
  } as RequestInit);
  let read = 0;
  let readWhenTimerRan = -1;
  setTimeout(() => readWhenTimerRan = read, 0);
  const due = performance.now() + 5;
  while (performance.now() < due); // the timer is due before the first byte is read
  const reader = meterRequest(request, {}).body!.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) read += next.value.byteLength;
  assert.equal(read, total);
  assert.ok(
    readWhenTimerRan >= 0 && readWhenTimerRan < total,
    `the timer ran at ${readWhenTimerRan} of ${total} bytes`,
  );
});

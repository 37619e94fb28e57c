/**
 * A client that disconnects mid-body (issue 29, L2) is not a server error: the server logs one JSON info
 * line for it, never "Unhandled error" with a stack, and goes on serving. On a real server process over raw
 * TCP, since only a real socket can break off.
 */
import assert from "node:assert/strict";
import { startServer } from "../setup/server-process.ts";
import { waitFor } from "../setup/wait-for.ts";

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function signUpWithKey(url: string) {
  const register = await fetch(`${url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: "leaver", password: "correct horse battery" }),
  });
  assert.equal(register.status, 201, await register.clone().text());
  await register.body?.cancel();
  const cookie = (register.headers.get("set-cookie") ?? "").split(";")[0]!;
  const created = await fetch(`${url}/api/keys`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({ name: "leaver" }),
  });
  assert.equal(created.status, 201);
  return { cookie, key: (await created.json()).key as string };
}

/** Sends the request head and part of its body, waits for the server to be reading it, and hangs up. */
async function hangUpMidBody(port: number, head: string, part: Uint8Array) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(encoder.encode(head));
  await conn.write(part);
  await sleep(200);
  conn.close();
}

/** The server's JSON log lines with this message. */
const logged = (lines: string[], msg: string) =>
  lines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l)).filter((entry) => entry.msg === msg);

Deno.test("[regression] clients hanging up mid-body get one JSON info line each, no unhandled error; the server stays healthy", async () => {
  const server = await startServer({ WORKERS: "1" });
  try {
    const { port } = new URL(server.url);
    const { cookie, key } = await signUpWithKey(server.url);
    const jpegStart = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new Uint8Array(1000)]);
    const auth = `Host: localhost\r\nAuthorization: Bearer ${key}\r\n`;
    const multipartHead = encoder.encode(
      `--b\r\nContent-Disposition: form-data; name="images"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const cases: [string, Uint8Array][] = [
      // The raw body the issue saw: Content-Length promised, a part sent.
      [
        `POST /api/v1/compress HTTP/1.1\r\n${auth}Content-Type: image/jpeg\r\nContent-Length: 100000\r\n\r\n`,
        jpegStart,
      ],
      [`POST /api/v1/compress?async=true HTTP/1.1\r\n${auth}Transfer-Encoding: chunked\r\n\r\n3ec\r\n`, jpegStart],
      [
        `POST /api/v1/compress HTTP/1.1\r\n${auth}Content-Type: multipart/form-data; boundary=b\r\n` +
        `Content-Length: 100000\r\n\r\n`,
        new Uint8Array([...multipartHead, ...jpegStart]),
      ],
      // The web app's upload, for comparison.
      [
        `POST /api/compress HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\n` +
        `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n`,
        new Uint8Array([...multipartHead, ...jpegStart]),
      ],
    ];
    for (const [head, part] of cases) await hangUpMidBody(Number(port), head, part);

    const lines = await waitFor(() => {
      const found = logged(server.stdout, "request body broken off");
      return found.length >= cases.length && found;
    }, { message: () => `${cases.length} info lines; stdout: ${server.stdout.join("\n")}` });
    assert.equal(lines.length, cases.length, "one line per disconnect");
    for (const line of lines) {
      assert.equal(line.level, "info");
      assert.match(line.path, /^\/api\/(v1\/)?compress$/);
      assert.equal(line.method, "POST");
    }
    const stderr = server.stderr();
    assert.doesNotMatch(stderr, /Unhandled/, stderr);
    assert.doesNotMatch(stderr, /^\s+at /m, "no stack trace");

    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    // Nothing was admitted from the broken bodies, and the account's next request is served.
    const jobs = await fetch(`${server.url}/api/jobs`, { headers: { Cookie: cookie } });
    assert.deepEqual((await jobs.json()).jobs, []);
    const next = await fetch(`${server.url}/api/v1/jobs/none`, { headers: { Authorization: `Bearer ${key}` } });
    assert.equal(next.status, 404);
    await next.body?.cancel();
  } finally {
    await server.stop();
  }
});

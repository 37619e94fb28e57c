import assert from "node:assert/strict";
import { join } from "node:path";
import {
  FileFailedError,
  ForbiddenError,
  isConnectFailure,
  KeyRefusedError,
  networkDetail,
  parseRetryAfter,
  postImage,
  type RetryNotice,
  UnreachableError,
} from "../../cli/client.ts";
import { API_KEY_DISPLAY_LENGTH, V1 } from "../../contract/api-keys.ts";
import { freePort } from "../setup/server-process.ts";
import { compressed, fakeJpeg, KEY, startFakeApi } from "./fake-api.ts";

async function withImage(fn: (path: string, bytes: Uint8Array) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cli-client-" });
  const bytes = fakeJpeg(4096);
  try {
    await Deno.writeFile(join(dir, "p.jpg"), bytes);
    await fn(join(dir, "p.jpg"), bytes);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const json = (status: number, error: string, headers: Record<string, string> = {}) =>
  Response.json({ error }, { status, headers });

Deno.test("client: a 503 with Retry-After: 1 is tried again after that second, then the 200 is returned", async () => {
  const api = startFakeApi((_req, i) =>
    i === 0 ? json(503, "The server is busy", { "Retry-After": "1" }) : compressed(fakeJpeg(100), 4096)
  );
  try {
    await withImage(async (path, bytes) => {
      const notices: RetryNotice[] = [];
      const res = await postImage(path, {
        url: api.url,
        key: KEY,
        query: new URLSearchParams({ quality: "70", target: "auto" }),
        onRetry: (n) => notices.push(n),
      });
      assert.equal(res.status, 200);
      assert.equal((await res.bytes()).length, 100);
      assert.equal(api.requests.length, 2);
      const [first, second] = api.requests;
      const waited = second!.at - first!.at;
      assert.ok(waited >= 950 && waited < 3000, `waited ${waited} ms`);
      assert.deepEqual(notices.map((n) => [n.attempt, n.waitMs]), [[2, 1000]]);
      assert.match(notices[0]!.reason, /503: The server is busy/);
      // Every attempt sends the whole file again, as the API expects it.
      for (const req of api.requests) {
        assert.equal(req.path, V1.compress);
        assert.equal(req.query.toString(), "quality=70&target=auto");
        assert.equal(req.authorization, `Bearer ${KEY}`);
        assert.equal(req.contentType, "image/jpeg");
        assert.deepEqual(req.bytes, bytes);
      }
    });
  } finally {
    await api.close();
  }
});

Deno.test("client: 429s are retried a bounded number of times; a Retry-After past the cap fails at once", async () => {
  const api = startFakeApi(() => json(429, "Too many requests", { "Retry-After": "0" }));
  try {
    await withImage(async (path) => {
      await assert.rejects(
        postImage(path, { url: api.url, key: KEY, query: new URLSearchParams(), retry: { busyRetries: 3 } }),
        (err: Error) => err instanceof FileFailedError && err.status === 429 && /Too many requests/.test(err.message),
      );
      assert.equal(api.requests.length, 4, "the first attempt and three retries");
    });
  } finally {
    await api.close();
  }

  const daily = startFakeApi(() => json(429, "Daily limit reached", { "Retry-After": "36000" }));
  try {
    await withImage(async (path) => {
      const t = performance.now();
      await assert.rejects(
        postImage(path, { url: daily.url, key: KEY, query: new URLSearchParams() }),
        /Daily limit reached \(retry after 10 h\)/,
      );
      assert.ok(performance.now() - t < 10_000, "no waiting for hours");
      assert.equal(daily.requests.length, 1);
    });
  } finally {
    await daily.close();
  }
});

Deno.test("client: 401 is a refused key (named by its first characters only), 403 a refused request; others fail the file", async () => {
  const api = startFakeApi((req) =>
    req.query.get("quality") === "1"
      ? json(401, "This API key was revoked")
      : req.query.get("target")
      ? json(403, "target: target size and quality are Premium features")
      : json(415, "'p.jpg': not a JPEG")
  );
  try {
    await withImage(async (path) => {
      await assert.rejects(
        postImage(path, { url: api.url, key: KEY, query: new URLSearchParams({ quality: "1" }) }),
        (err: Error) => {
          assert.ok(err instanceof KeyRefusedError);
          assert.match(err.message, /^The API key was refused \(401\): This API key was revoked/);
          assert.ok(err.message.includes(KEY.slice(0, API_KEY_DISPLAY_LENGTH)), err.message);
          assert.ok(!err.message.includes(KEY), "never the whole secret");
          return true;
        },
      );
      await assert.rejects(
        postImage(path, { url: api.url, key: KEY, query: new URLSearchParams() }),
        (err: Error) => err instanceof FileFailedError && err.status === 415 && /not a JPEG \(415\)/.test(err.message),
      );
      await assert.rejects(
        postImage(path, { url: api.url, key: KEY, query: new URLSearchParams({ target: "auto" }) }),
        (err: Error) =>
          err instanceof ForbiddenError && /^The server refused this request \(403\): target: /.test(err.message),
      );
      assert.equal(api.requests.length, 3, "none is retried");
    });
  } finally {
    await api.close();
  }
});

Deno.test("client: a closed port is tried a couple of times with backoff, then 'Cannot reach'", async () => {
  const port = freePort();
  await withImage(async (path) => {
    const notices: RetryNotice[] = [];
    const t = performance.now();
    await assert.rejects(
      postImage(path, {
        url: `http://127.0.0.1:${port}`,
        key: KEY,
        query: new URLSearchParams(),
        retry: { backoffMs: 50 },
        onRetry: (n) => notices.push(n),
      }),
      (err: Error) =>
        err instanceof UnreachableError &&
        err.message.startsWith(`Cannot reach http://127.0.0.1:${port}: `) && /refused/i.test(err.message),
    );
    assert.deepEqual(notices.map((n) => n.waitMs), [50, 100], "two retries, the backoff doubling");
    assert.ok(performance.now() - t >= 150);
  });
});

Deno.test("client: an abort stops a wait for Retry-After at once", async () => {
  const api = startFakeApi(() => json(503, "busy", { "Retry-After": "30" }));
  try {
    await withImage(async (path) => {
      const stop = new AbortController();
      const t = performance.now();
      const sent = postImage(path, {
        url: api.url,
        key: KEY,
        query: new URLSearchParams(),
        signal: stop.signal,
        onRetry: () => setTimeout(() => stop.abort(new Error("stopped")), 10),
      });
      await assert.rejects(sent, /stopped/);
      assert.ok(performance.now() - t < 10_000, "not the 30 s Retry-After");
    });
  } finally {
    await api.close();
  }
});

Deno.test("client: Retry-After as seconds or an HTTP date; fetch failures described", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(parseRetryAfter("7", now), 7);
  assert.equal(parseRetryAfter(" 0 ", now), 0);
  assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now), 30);
  assert.equal(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now), 0);
  assert.equal(parseRetryAfter("soon", now), null);
  assert.equal(parseRetryAfter(null, now), null);

  const refused = new TypeError("fetch failed", {
    cause: new Error(
      "error sending request for url (http://127.0.0.1:5/x): client error (Connect): tcp connect error: Connection refused (os error 111)",
    ),
  });
  assert.equal(networkDetail(refused), "tcp connect error: Connection refused (os error 111)");
  assert.ok(isConnectFailure(refused));
  const reset = new TypeError("fetch failed", { cause: new Error("connection reset by peer") });
  assert.ok(!isConnectFailure(reset));
});

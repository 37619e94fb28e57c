/** The developer API, `/api/v1` (issue 23, ADR 025): key-only auth, one image per request, the account's limits. */
import { safeFileName } from "../../contract/file-names.ts";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { API_KEY_PREFIX, API_RATE_LIMIT, MAX_API_JOBS_IN_FLIGHT, V1, V1_HEADERS } from "../../contract/api-keys.ts";
import {
  DEFAULT_SAVED_SETTINGS,
  ENCODER_FORMAT_ERROR,
  QUALITY_RANGE,
  savedSettingsSchema,
} from "../../contract/settings.ts";
import { z } from "zod";
import { CodecError, inspectJpeg } from "../../codecs/mod.ts";
import {
  createTestApp,
  fixture,
  makePremium,
  ORIGIN,
  peerInstance,
  signUp,
  type TestApp,
  upload,
  waitForJobs,
} from "../setup/app-harness.ts";
import { bearer, createKey, v1Compress, v1Get } from "../setup/api-keys.ts";
import { HELD_SCORES, HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { POOL_START_STALL_MS, waitFor } from "../setup/wait-for.ts";
import { noCompressor } from "../../server/services/compression/codec-compressor.ts";
import { END_FALLBACK_MS } from "../../server/services/compression/queries.ts";
import { MemoryStore } from "../../server/store/mod.ts";

const MB = 1024 * 1024;
/** Rate limits out of the way, for tests about something else. */
const UNLIMITED = { burst: 1e9, perSecond: 1e9 };

async function setup(options: Parameters<typeof createTestApp>[0] = {}) {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor, apiRateLimit: UNLIMITED, ...options });
  const { cookie } = await signUp(t);
  const { key } = await createKey(t, cookie);
  return { t, cookie, key, compressor };
}

async function expectError(res: Response, status: number, pattern: RegExp) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${await res.clone().text()}`);
  assert.match(res.headers.get("Content-Type") ?? "", /application\/json/);
  const body = await res.json();
  assert.deepEqual(Object.keys(body), ["error"]);
  assert.match(body.error, pattern);
}

async function nothingLeftBehind(t: TestApp, cookie: string) {
  const { jobs } = await (await t.request("/api/jobs", { headers: { Cookie: cookie } })).json();
  assert.equal(jobs.length, 0);
  const usage = await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json();
  assert.equal(usage.used, 0);
}

const isJpeg = (bytes: Uint8Array) =>
  bytes[0] === 0xff && bytes[1] === 0xd8 && bytes.at(-2) === 0xff && bytes.at(-1) === 0xd9;

// ---- authentication ------------------------------------------------------------------------------------

Deno.test("/api/v1 answers 401 with its own message for a missing, malformed, unknown or revoked key", async () => {
  const { t, cookie, key } = await setup();
  const image = taggedFile("a");
  await expectError(
    await t.request(V1.compress, { method: "POST", body: image }),
    401,
    /^Missing API key: send Authorization: Bearer sq_live_/,
  );
  await expectError(
    await t.request(V1.compress, { method: "POST", body: image, headers: { Authorization: `Basic ${key}` } }),
    401,
    /^Malformed Authorization header/,
  );
  await expectError(await v1Compress(t, "sq_live_short", image), 401, /^Malformed API key/);
  await expectError(await v1Compress(t, "sk_test_" + "a".repeat(52), image), 401, /^Malformed API key/);
  await expectError(await v1Compress(t, API_KEY_PREFIX + "a".repeat(52), image), 401, /^Invalid API key/);
  const { id, key: revoked } = await createKey(t, cookie, "old");
  await t.request(`/api/keys/${id}`, { method: "DELETE", headers: { Cookie: cookie } });
  await expectError(await v1Compress(t, revoked, image), 401, /revoked/);
  const res = await v1Get(t, revoked, V1.job("x"));
  assert.equal(res.status, 401);
  assert.match(res.headers.get("WWW-Authenticate") ?? "", /^Bearer/);
  await nothingLeftBehind(t, cookie);
  await t.close();
});

Deno.test("a session cookie alone is refused on /api/v1 (401), on every route", async () => {
  const { t, cookie } = await setup();
  const image = taggedFile("a");
  await expectError(
    await t.request(V1.compress, { method: "POST", headers: { Cookie: cookie, Origin: ORIGIN }, body: image }),
    401,
    /^Missing API key/,
  );
  const up = await upload(t, cookie, [taggedFile("web")]);
  const { jobs: [job] } = await up.json();
  await expectError(await t.request(V1.job(job.id), { headers: { Cookie: cookie } }), 401, /^Missing API key/);
  await expectError(await t.request(V1.result(job.id), { headers: { Cookie: cookie } }), 401, /^Missing API key/);
  await t.close();
});

Deno.test("/api/v1 has no CSRF check: a key works whatever Origin says (a browser never sends the header itself)", async () => {
  const { t, key, compressor } = await setup();
  const res = await v1Compress(t, key, taggedFile("a"), "async=true", {
    headers: { Origin: "https://elsewhere.example" },
  });
  assert.equal(res.status, 202);
  (await compressor.started(1))[0]!.finish();
  await t.close();
});

Deno.test("unknown /api/v1 paths answer 404 JSON", async () => {
  const { t, key } = await setup();
  await expectError(await v1Get(t, key, "/api/v1/nothing"), 404, /No API route/);
  await t.close();
});

// ---- the synchronous answer -------------------------------------------------------------------------

Deno.test("POST /api/v1/compress waits for the job and answers its bytes with the V1 headers", async () => {
  const { t, key, compressor } = await setup();
  const image = taggedFile("sync", "x.jpg", 4000);
  const pending = v1Compress(t, key, image, "quality=55&format=jpeg");
  const [call] = await compressor.started(1);
  assert.equal(call!.settings.quality, 55);
  const finishedAt = performance.now();
  call!.finish({ width: 640, height: 480 });
  const res = await pending;
  const waited = performance.now() - finishedAt;
  assert.ok(waited < 300, `answered ${Math.round(waited)} ms after the job ended: woken, not polled`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("Content-Type"), "image/jpeg");
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.equal(bytes.length, 2000);
  assert.equal(res.headers.get("Content-Length"), "2000");
  const jobId = res.headers.get(V1_HEADERS.jobId)!;
  assert.ok(jobId);
  assert.equal(res.headers.get(V1_HEADERS.count), "1");
  assert.equal(res.headers.get(V1_HEADERS.width), "640");
  assert.equal(res.headers.get(V1_HEADERS.height), "480");
  assert.equal(res.headers.get(V1_HEADERS.originalSize), "4000");
  assert.equal(res.headers.get(V1_HEADERS.compressedSize), "2000");
  assert.equal(res.headers.get(V1_HEADERS.score), String(HELD_SCORES.ssimulacra2));
  const job = await (await v1Get(t, key, V1.job(jobId))).json();
  assert.equal(job.status, "completed");
  assert.equal(job.filename, "image.jpg");
  await t.close();
});

Deno.test("a raw body named in Content-Disposition gives its job that name, in its safe form", async () => {
  const { t, key, compressor } = await setup();
  const named = v1Compress(t, key, taggedFile("n"), "", {
    headers: { "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent("été/../plage.jpg")}` },
  });
  (await compressor.started(1))[0]!.finish();
  const res = await named;
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const job = await (await v1Get(t, key, V1.job(res.headers.get(V1_HEADERS.jobId)!))).json();
  assert.equal(job.filename, safeFileName("été/../plage.jpg"));
  assert.notEqual(job.filename, "image.jpg");
  await t.close();
});

Deno.test("a deferred score is not waited for: no Ssimulacra2-Score header, and the job shows scorePending", async () => {
  const { t, key, compressor } = await setup();
  const pending = v1Compress(t, key, taggedFile("q"));
  (await compressor.started(1))[0]!.finish({ scores: null });
  const res = await pending;
  assert.equal(res.status, 200);
  await res.body?.cancel();
  assert.equal(res.headers.get(V1_HEADERS.score), null);
  const job = await (await v1Get(t, key, V1.job(res.headers.get(V1_HEADERS.jobId)!))).json();
  assert.equal(job.scorePending, true);
  compressor.scoreCalls[0]?.finish();
  await t.close();
});

Deno.test("a job that fails answers 422 with its message; a cancelled one 409; both give the unit back", async () => {
  const { t, cookie, key, compressor } = await setup();
  const pending = v1Compress(t, key, taggedFile("bad"));
  (await compressor.started(1))[0]!.fail(
    new CodecError("corrupt_image", "Cannot decode the image: its scan data is corrupt"),
  );
  const res = await pending;
  assert.ok(res.headers.get(V1_HEADERS.jobId));
  await expectError(res, 422, /^Cannot decode the image: its scan data is corrupt$/);

  const second = v1Compress(t, key, taggedFile("cancel"));
  await compressor.started(2);
  const { batches } = await (await t.request("/api/batches", { headers: { Cookie: cookie } })).json();
  const open = batches.find((b: { status: string }) => b.status !== "error");
  await t.request(`/api/batches/${open.id}`, { method: "DELETE", headers: { Cookie: cookie, Origin: ORIGIN } });
  await expectError(await second, 409, /^Cancelled before it finished$/);
  const usage = await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json();
  assert.equal(usage.used, 0);
  await t.close();
});

Deno.test("a failed job answers by its stored code, never its message: the codec's code maps to its status", async () => {
  const { t, key, compressor } = await setup();
  const cases: [CodecError, number][] = [
    // Worded as a cancellation, coded as a corrupt image: the code decides.
    [new CodecError("corrupt_image", "Cancelled before it finished"), 422],
    [new CodecError("timeout", "The image took longer than 60 s to process"), 504],
    [new CodecError("too_many_pixels", "The image is 20000×20000 (400.0 MP); the limit is 50 MP"), 413],
    [new CodecError("unsupported_format", "The file is not a JPEG image"), 415],
  ];
  for (const [i, [error, status]] of cases.entries()) {
    const pending = v1Compress(t, key, taggedFile(`f${i}`));
    (await compressor.started(i + 1))[i]!.fail(error);
    const res = await pending;
    await expectError(res, status, new RegExp(`^${error.message.replace(/[()]/g, "\\$&")}$`));
    assert.ok(res.headers.get(V1_HEADERS.jobId));
    const [row] = await t.db.all<{ error_code: string }>(
      sql`SELECT error_code FROM jobs WHERE id = ${res.headers.get(V1_HEADERS.jobId)}`,
    );
    assert.equal(row?.error_code, error.code, "the code is stored beside the message");
  }
  await t.close();
});

Deno.test("a real corrupt JPEG fails its own job: 422 with the codec's message", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const { key } = await createKey(t, cookie);
    const res = await v1Compress(t, key, await fixture("truncated.jpg"));
    assert.equal(res.status, 422);
    const { error } = await res.json();
    assert.ok(error.length > 0);
    const job = await (await v1Get(t, key, V1.job(res.headers.get(V1_HEADERS.jobId)!))).json();
    assert.equal(job.status, "error");
    assert.equal(job.errorMessage, error);
  } finally {
    await t.close();
  }
});

Deno.test("a client that leaves does not stop its job: it completes and its result is at /jobs/:id/result", async () => {
  const { t, key, compressor } = await setup();
  const abort = new AbortController();
  const pending = v1Compress(t, key, taggedFile("left", "l.jpg", 100), "", { signal: abort.signal });
  const [call] = await compressor.started(1);
  abort.abort();
  await Promise.resolve(pending).then((r) => r.body?.cancel(), () => {});
  call!.finish();
  const id = (await t.db.all<{ id: string }>(sql`SELECT id FROM jobs`))[0]!.id;
  await waitFor(async () => (await (await v1Get(t, key, V1.job(id))).json()).status === "completed");
  const result = await v1Get(t, key, V1.result(id));
  assert.equal(result.status, 200);
  assert.equal((await result.arrayBuffer()).byteLength, 50);
  await t.close();
});

Deno.test("on a shared queue the job may run on another instance: the waiting request reads it on its fallback poll", async () => {
  const store = new MemoryStore(); // shared by both instances, as S3 would be
  // The instance the request reaches serves HTTP only (WORKERS=0); another one with workers runs the job.
  const t = await createTestApp({ compressor: noCompressor(), store, sharedQueue: true, apiRateLimit: UNLIMITED });
  const held = new HeldCompressor(1);
  const other = peerInstance(t, held, store);
  try {
    const { cookie } = await signUp(t);
    const { key } = await createKey(t, cookie);
    const pending = v1Compress(t, key, taggedFile("far", "f.jpg", 600));
    const [call] = await held.started(1);
    const endedAt = performance.now();
    call!.finish();
    const res = await pending;
    const waited = performance.now() - endedAt;
    assert.equal(res.status, 200);
    assert.equal((await res.arrayBuffer()).byteLength, 300);
    assert.ok(waited < END_FALLBACK_MS + 400, `answered ${Math.round(waited)} ms after the job ended elsewhere`);
  } finally {
    await other.drain(100);
    await t.close();
  }
});

// ---- async -----------------------------------------------------------------------------------------

Deno.test("async=true answers 202 {id}; the job is polled at /jobs/:id; its result is a valid JPEG (real pool)", async () => {
  const t = await createTestApp({ pool: 1, apiRateLimit: UNLIMITED });
  try {
    const { cookie } = await signUp(t);
    const { key } = await createKey(t, cookie);
    const res = await v1Compress(t, key, await fixture("base.jpg"), "async=true&quality=70");
    assert.equal(res.status, 202);
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ["id"]);
    assert.equal(res.headers.get("Location"), V1.job(body.id));
    assert.equal(res.headers.get(V1_HEADERS.jobId), body.id);
    assert.equal(res.headers.get(V1_HEADERS.count), "1");

    let job: Record<string, unknown> = {};
    // Until the job ends, however long the fresh pool takes to start on this machine (its own timeout bounds
    // the job once a worker runs it); then it must have completed.
    await waitFor(async () => {
      job = await (await v1Get(t, key, V1.job(body.id))).json();
      return job.status === "completed" || job.status === "error";
    }, {
      timeoutMs: POOL_START_STALL_MS,
      intervalMs: 50,
      progress: () => `${job.status} ${job.progress}`,
      message: () => `the async job to end (${job.status}, ${job.progress}%)`,
    });
    assert.equal(job.status, "completed", String(job.errorMessage));
    // The same shape as an entry of GET /api/jobs.
    const { jobs } = await (await t.request("/api/jobs", { headers: { Cookie: cookie } })).json();
    assert.deepEqual(Object.keys(job).sort(), Object.keys(jobs[0]).sort());
    assert.equal(jobs[0].id, body.id);
    assert.equal((job.settings as { quality: number }).quality, 70);

    const result = await v1Get(t, key, V1.result(body.id));
    assert.equal(result.status, 200);
    assert.equal(result.headers.get("Content-Type"), "image/jpeg");
    const bytes = new Uint8Array(await result.arrayBuffer());
    assert.ok(isJpeg(bytes));
    const info = inspectJpeg(bytes);
    assert.equal(info.width, job.width);
    assert.equal(bytes.length, job.compressedSize);
  } finally {
    await t.close();
  }
});

Deno.test("GET /jobs/:id/result answers 409 before completion and 410 once expired", async () => {
  let now = Date.now();
  const { t, key, compressor } = await setup({ now: () => now, resultTtlMs: 60_000 });
  const { id } = await (await v1Compress(t, key, taggedFile("a"), "async=true")).json();
  await expectError(await v1Get(t, key, V1.result(id)), 409, /not completed/);
  (await compressor.started(1))[0]!.finish();
  await waitFor(async () => (await (await v1Get(t, key, V1.job(id))).json()).status === "completed");
  const ok = await v1Get(t, key, V1.result(id));
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get(V1_HEADERS.jobId), id);
  await ok.body?.cancel();
  now += 61_000;
  await expectError(await v1Get(t, key, V1.result(id)), 410, /expired/);
  await t.close();
});

Deno.test("another user's key answers 404 for a job and its result", async () => {
  const { t, key, compressor } = await setup();
  const { id } = await (await v1Compress(t, key, taggedFile("a"), "async=true")).json();
  (await compressor.started(1))[0]!.finish();
  const bob = await signUp(t, "bob");
  const { key: bobKey } = await createKey(t, bob.cookie);
  await expectError(await v1Get(t, bobKey, V1.job(id)), 404, /^No such job$/);
  await expectError(await v1Get(t, bobKey, V1.result(id)), 404, /^No such job$/);
  assert.equal((await v1Get(t, key, V1.job(id))).status, 200);
  await t.close();
});

// ---- the body -------------------------------------------------------------------------------------

Deno.test("multipart with exactly one file is accepted; two files or a text field are 400", async () => {
  const { t, key, compressor } = await setup();
  const post = (form: FormData) =>
    t.request(V1.compress + "?async=true", { method: "POST", headers: bearer(key), body: form });
  const one = new FormData();
  one.append("image", taggedFile("mp", "photo.jpg"));
  const res = await post(one);
  assert.equal(res.status, 202);
  const { id } = await res.json();
  assert.equal((await (await v1Get(t, key, V1.job(id))).json()).filename, "photo.jpg");

  const two = new FormData();
  two.append("image", taggedFile("a"));
  two.append("image", taggedFile("b"));
  await expectError(await post(two), 400, /one image per request/);
  const field = new FormData();
  field.append("image", taggedFile("c"));
  field.append("quality", "50");
  await expectError(await post(field), 400, /settings in the query string.*'quality'/);
  await expectError(await post(new FormData()), 400, /no file/);
  (await compressor.started(1))[0]!.finish();
  await t.close();
});

/** A multipart body of one file and the Content-Type declaring it, the media type spelled as given. */
async function multipartBody(file: File, mediaType: string) {
  const form = new FormData();
  form.append("images", file);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  const boundary = request.headers.get("Content-Type")!.match(/boundary=(.*)$/)![1]!;
  return { body: await request.arrayBuffer(), contentType: `${mediaType}; boundary=${boundary}` };
}

Deno.test("[regression] media types are compared case-insensitively: MULTIPART/FORM-DATA is multipart, on the API and the web upload", async () => {
  const { t, cookie, key, compressor } = await setup();
  for (const [i, mediaType] of ["MULTIPART/FORM-DATA", "Multipart/Form-Data"].entries()) {
    const { body, contentType } = await multipartBody(taggedFile(`mp${i}`, `photo${i}.jpg`), mediaType);
    const res = await t.request(V1.compress + "?async=true", {
      method: "POST",
      headers: bearer(key, { "Content-Type": contentType }),
      body,
    });
    assert.equal(res.status, 202, `${mediaType}: ${await res.clone().text()}`);
    const { id } = await res.json();
    assert.equal((await (await v1Get(t, key, V1.job(id))).json()).filename, `photo${i}.jpg`, "read as multipart");
  }
  const { body, contentType } = await multipartBody(taggedFile("web", "web.jpg"), "MULTIPART/Form-Data");
  const web = await t.request("/api/compress", {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": contentType },
    body,
  });
  assert.equal(web.status, 201, await web.clone().text());
  assert.equal((await web.json()).jobs[0].filename, "web.jpg");
  for (const call of await compressor.started(1)) call.finish();
  await t.close();
});

Deno.test("415 for what is not a JPEG by its bytes, 400 for an empty body; nothing is left behind", async () => {
  const { t, cookie, key } = await setup();
  await expectError(await v1Compress(t, key, await fixture("png-renamed.jpg")), 415, /not a JPEG.*PNG/);
  await expectError(await v1Compress(t, key, new Blob([])), 400, /empty/);
  await nothingLeftBehind(t, cookie);
  await t.close();
});

Deno.test("413 over the plan's bytes per file (declared or streamed) or pixels per image", async () => {
  const { t, cookie, key } = await setup();
  const big = taggedFile("big", "big.jpg", 10 * MB + 1);
  // Declared: refused before a byte is read.
  await expectError(
    await v1Compress(t, key, big, "", { headers: { "Content-Length": String(big.size) } }),
    413,
    /larger than 10\.0 MB, the most the free plan allows/,
  );
  // Streamed without a length: cut off as it passes the limit.
  await expectError(await v1Compress(t, key, big.stream()), 413, /larger than 10\.0 MB/);
  await expectError(await v1Compress(t, key, await fixture("huge-dimensions.jpg")), 413, /60000×60000.*50 MP/);
  // Past the largest plan's file: the body guard refuses it for everyone.
  await expectError(
    await v1Compress(t, key, big, "", { headers: { "Content-Length": String(30 * MB) } }),
    413,
    /larger than 25 MB/,
  );
  await nothingLeftBehind(t, cookie);
  await t.close();
});

Deno.test("a Premium key's file may be 25 MB", async () => {
  const { t, key, compressor } = await setup();
  await makePremium(t, "alice");
  const res = await v1Compress(t, key, taggedFile("p", "p.jpg", 20 * MB), "async=true");
  assert.equal(res.status, 202);
  (await compressor.started(1))[0]!.finish();
  await t.close();
});

Deno.test("the body guard's idle timeout and whole-body deadline apply as for uploads (408)", async () => {
  const { t, key } = await setup({ bodyIdleMs: 100 });
  const stalled = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(Uint8Array.of(0xff, 0xd8, 0xff));
    },
  });
  await expectError(await v1Compress(t, key, stalled), 408, /stopped arriving/);
  await t.close();

  const slow = await setup({ bodyDeadlines: { uploadBaseMs: 150, uploadBytesPerSecond: 1e12, uploadMaxMs: 150 } });
  let timer: ReturnType<typeof setInterval> | undefined;
  const trickle = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(Uint8Array.of(0xff, 0xd8, 0xff));
      timer = setInterval(() => c.enqueue(Uint8Array.of(0)), 20);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  await expectError(await v1Compress(slow.t, slow.key, trickle), 408, /took too long/);
  clearInterval(timer);
  await slow.t.close();
});

// ---- settings -------------------------------------------------------------------------------------

Deno.test("settings come from the query string by the web form's rules: 400 naming the bad one", async () => {
  const { t, cookie, key } = await setup();
  const image = taggedFile("a");
  const cases: [string, RegExp][] = [
    ["quality=0", /^quality must be a whole number from 1 to 100$/],
    ["quality=abc", /^quality must be a whole number from 1 to 100$/],
    ["quality=", /^quality must be a whole number from 1 to 100$/],
    ["format=gif", /^format must be one of jpeg, webp, avif, jxl, auto$/],
    ["progressive=yes", /^progressive must be "true" or "false"$/],
    ["format=webp&encoder=jpegli", new RegExp(`^encoder: ${ENCODER_FORMAT_ERROR}$`)],
    ["qualty=50", /^Unknown query parameter 'qualty'; the settings are quality, format, .*, and async$/],
    ["qualty=50&fromat=webp", /^Unknown query parameters 'qualty', 'fromat'/],
    ["quality=50&quality=60", /^quality is given 2 times; give it once$/],
    ["async=yes", /^async must be "true" or "false"$/],
    // A parameter without a name: the client meant something by it (async=true so the old acceptance answered at once).
    ["=1&async=true", /^Unknown query parameter '' \(a parameter without a name\); the settings are quality, /],
    ["async=true&&&", /^Unknown query parameter '' \(a parameter without a name\)/],
    ["async=true&", /^Unknown query parameter '' \(a parameter without a name\)/],
    ["async=true&=", /^Unknown query parameter ''/],
    ["qualty=5&=1&async=true", /^Unknown query parameters 'qualty', '' \(a parameter without a name\)/],
    ["__proto__=1&async=true", /^Unknown query parameter '__proto__'/],
  ];
  for (const [query, pattern] of cases) await expectError(await v1Compress(t, key, image, query), 400, pattern);
  await nothingLeftBehind(t, cookie);
  await t.close();
});

Deno.test("targets are Premium-only (403, as on the web); Premium takes the short forms and JSON", async () => {
  const { t, key, compressor } = await setup();
  await expectError(await v1Compress(t, key, taggedFile("a"), "target=auto"), 403, /Premium/);
  await makePremium(t, "alice");
  const expected: [string, unknown][] = [
    ["target=auto", { kind: "auto" }],
    ["target=size:200", { kind: "size", kb: 200 }],
    ["target=score:85", { kind: "quality", score: 85 }],
    ["target=score:82.5", { kind: "quality", score: 82.5 }],
    [`target=${encodeURIComponent('{"kind":"size","kb":300}')}`, { kind: "size", kb: 300 }],
  ];
  for (const [i, [query, target]] of expected.entries()) {
    const res = await v1Compress(t, key, taggedFile(`t${i}`), `${query}&async=true`);
    assert.equal(res.status, 202, query);
    const { id } = await res.json();
    const job = await (await v1Get(t, key, V1.job(id))).json();
    assert.deepEqual(job.settings.target, target, query);
  }
  await expectError(await v1Compress(t, key, taggedFile("x"), "target=size:abc"), 400, /^target\.kb must be/);
  await expectError(await v1Compress(t, key, taggedFile("x"), "target=score:99"), 400, /target/);
  await expectError(await v1Compress(t, key, taggedFile("x"), "target=fast"), 400, /^target must be JSON/);
  for (const call of await compressor.started(1)) call.finish();
  await t.close();
});

// ---- usage, limits, saturation --------------------------------------------------------------------

Deno.test("usage is the account's, web and API together: 9 by the web + 1 by the API = 10, then both refused (429 + Retry-After)", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const { key } = await createKey(t, cookie);
    const image = await fixture("base.jpg");
    for (let i = 0; i < 9; i++) assert.equal((await upload(t, cookie, [image])).status, 201);
    await waitForJobs(t, cookie, (jobs) => jobs.length === 9 && jobs.every((j) => j.status === "completed"));
    const res = await v1Compress(t, key, image);
    assert.equal(res.status, 200);
    assert.ok(isJpeg(new Uint8Array(await res.arrayBuffer())));
    assert.equal(res.headers.get(V1_HEADERS.count), "10");
    const usage = await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json();
    assert.equal(usage.used, 10, "Compression-Count agrees with /api/usage");

    const api = await v1Compress(t, key, image);
    const retry = Number(api.headers.get("Retry-After"));
    await expectError(api, 429, /^Daily limit reached: 10 compressions per day on the free plan$/);
    const untilMidnight = (Date.UTC(...utcTomorrow()) - Date.now()) / 1000;
    assert.ok(retry > 0 && Math.abs(retry - untilMidnight) < 5, `Retry-After ${retry} ≈ ${untilMidnight}`);
    const web = await upload(t, cookie, [image]);
    assert.ok(Number(web.headers.get("Retry-After")) > 0, "the web's 429 says when, too");
    await expectError(web, 429, /^Daily limit reached/);
  } finally {
    await t.close();
  }
});

function utcTomorrow(): [number, number, number] {
  const d = new Date();
  return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1];
}

Deno.test(`503 once the account has ${MAX_API_JOBS_IN_FLIGHT} API jobs unfinished; web uploads are not counted`, async () => {
  const { t, cookie, key, compressor } = await setup();
  await makePremium(t, "alice");
  assert.equal((await upload(t, cookie, [taggedFile("web1"), taggedFile("web2")])).status, 201);
  const accepted = await Promise.all(
    Array.from({ length: MAX_API_JOBS_IN_FLIGHT }, (_, i) => v1Compress(t, key, taggedFile(`a${i}`), "async=true")),
  );
  assert.deepEqual(accepted.map((r) => r.status), Array(MAX_API_JOBS_IN_FLIGHT).fill(202));
  const refused = await v1Compress(t, key, taggedFile("over"), "async=true");
  assert.equal(refused.headers.get("Retry-After"), "5");
  await expectError(refused, 503, /already has 20 API jobs unfinished/);
  // The web's two end: still full. Then an API job ends: room for one more.
  (await compressor.started(1))[0]!.finish();
  (await compressor.started(2))[1]!.finish();
  const third = (await compressor.started(3))[2]!;
  assert.match(third.tag, /^a\d+$/);
  await expectError(await v1Compress(t, key, taggedFile("over"), "async=true"), 503, /unfinished/);
  third.finish();
  await waitFor(async () => {
    const res = await v1Compress(t, key, taggedFile("next"), "async=true");
    await res.body?.cancel();
    return res.status === 202;
  });
  await t.close();
});

Deno.test(`[regression] 40 API requests at once admit ${MAX_API_JOBS_IN_FLIGHT} jobs, not more (requests still arriving count)`, async () => {
  const { t, key } = await setup();
  await makePremium(t, "alice");
  const all = await Promise.all(
    Array.from({ length: 40 }, (_, i) => v1Compress(t, key, taggedFile(`p${i}`), "async=true")),
  );
  const statuses = all.map((r) => r.status);
  await Promise.all(all.map((r) => r.body?.cancel()));
  assert.equal(statuses.filter((s) => s === 202).length, MAX_API_JOBS_IN_FLIGHT, statuses.join());
  assert.equal(statuses.filter((s) => s === 503).length, 40 - MAX_API_JOBS_IN_FLIGHT);
  await t.close();
});

Deno.test("503 while the server drains, and when the store cannot hold the image", async () => {
  const small = await setup({ maxStoreBytes: 1000 });
  await expectError(await v1Compress(small.t, small.key, taggedFile("big", "b.jpg", 5000)), 503, /busy/);
  await small.t.close();

  const { t, key } = await setup();
  await t.compression.drain(10);
  const res = await v1Compress(t, key, taggedFile("a"));
  assert.equal(res.headers.get("Retry-After"), "60");
  await expectError(res, 503, /restarting/);
  await t.close();
});

// ---- the rate limit --------------------------------------------------------------------------------

Deno.test("the per-key rate limit holds under 40 parallel requests: some 429 with Retry-After, the rest served", async () => {
  const t = await createTestApp({ compressor: new HeldCompressor(1) });
  const { cookie } = await signUp(t);
  const { key } = await createKey(t, cookie);
  const { key: other } = await createKey(t, cookie, "other");
  const results = await Promise.all(Array.from({ length: 40 }, () => v1Get(t, key, V1.job("none"))));
  const limited = results.filter((r) => r.status === 429);
  const served = results.filter((r) => r.status === 404);
  assert.equal(limited.length + served.length, 40);
  assert.ok(
    served.length >= API_RATE_LIMIT.burst && served.length <= API_RATE_LIMIT.burst + 2,
    `${served.length} served`,
  );
  for (const r of limited) {
    assert.ok(Number(r.headers.get("Retry-After")) >= 1);
    assert.match((await r.json()).error, /Too many requests with this API key/);
  }
  await Promise.all(served.map((r) => r.body?.cancel()));
  // Per key: another key of the same account is not limited by this one's bucket.
  assert.equal((await v1Get(t, other, V1.job("none"))).status, 404);
  await t.close();
});

Deno.test("the rate limit applies before anything else: refused requests spend tokens, and a flood never reaches the body", async () => {
  const t = await createTestApp({ compressor: new HeldCompressor(1), apiRateLimit: { burst: 3, perSecond: 0.001 } });
  const { cookie } = await signUp(t);
  const { key } = await createKey(t, cookie);
  for (let i = 0; i < 3; i++) assert.equal((await v1Compress(t, key, taggedFile("a"), "quality=0")).status, 400);
  const res = await v1Compress(t, key, taggedFile("a"));
  assert.equal(res.status, 429);
  await res.body?.cancel();
  await nothingLeftBehind(t, cookie);
  await t.close();
});

// ---- the OpenAPI document -----------------------------------------------------------------------------

Deno.test("GET /api/v1/openapi.json is public OpenAPI 3.1 generated from the schemas: every setting a query parameter with its range", async () => {
  const t = await createTestApp();
  const res = await t.request(V1.openapi);
  assert.equal(res.status, 200);
  const doc = await res.json();
  assert.equal(doc.openapi, "3.1.0");
  assert.deepEqual(doc.components.securitySchemes.bearer, {
    type: "http",
    scheme: "bearer",
    description: `An API key: ${API_KEY_PREFIX}…`,
  });
  for (const path of [V1.compress, "/api/v1/jobs/{id}", "/api/v1/jobs/{id}/result", "/api/keys", "/api/keys/{id}"]) {
    assert.ok(doc.paths[path], `${path} is described`);
  }
  const compress = doc.paths[V1.compress].post;
  assert.deepEqual(compress.security, [{ bearer: [] }]);
  const params = new Map<string, { in: string; schema: Record<string, unknown> }>(
    compress.parameters.map((p: { name: string }) => [p.name, p]),
  );
  const shape = savedSettingsSchema.shape as Record<string, z.ZodType>;
  for (const name of Object.keys(DEFAULT_SAVED_SETTINGS)) {
    const param = params.get(name);
    assert.ok(param, `${name} is a query parameter`);
    assert.equal(param.in, "query");
    if (name === "target") continue;
    const expected = z.toJSONSchema(shape[name]!) as Record<string, unknown>;
    for (const rule of ["type", "enum", "minimum", "maximum"]) {
      assert.deepEqual(param.schema[rule], expected[rule], `${name}.${rule}`);
    }
    assert.deepEqual(param.schema.default, DEFAULT_SAVED_SETTINGS[name as keyof typeof DEFAULT_SAVED_SETTINGS]);
  }
  assert.deepEqual(params.get("quality")!.schema, {
    type: "integer",
    minimum: QUALITY_RANGE.min,
    maximum: QUALITY_RANGE.max,
    default: 80,
  });
  assert.ok(params.get("async"));
  const target = JSON.stringify(params.get("target")!.schema);
  assert.match(target, /size:/);
  assert.match(target, /"minimum":1,"maximum":100000/, "the size range");
  assert.match(target, /"minimum":50,"maximum":95/, "the score range");
  assert.equal(params.size, Object.keys(DEFAULT_SAVED_SETTINGS).length + 1, "nothing else");

  const ok = compress.responses["200"];
  for (const header of Object.values(V1_HEADERS)) assert.ok(ok.headers[header], `${header} is described`);
  for (const status of ["400", "401", "413", "415", "422", "429", "500", "503", "504"]) {
    assert.equal(compress.responses[status].content["application/json"].schema.$ref, "#/components/schemas/Error");
  }
  assert.ok(compress.responses["429"].headers["Retry-After"]);
  assert.deepEqual(doc.components.schemas.Error.required, ["error"]);
  assert.ok(doc.components.schemas.Job.properties.scorePending);
  assert.deepEqual(doc.components.schemas.CreateApiKey.properties.name.maxLength, 60);
  await t.close();
});

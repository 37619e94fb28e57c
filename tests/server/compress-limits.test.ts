/** Admission: every field validated, every limit refused with a JSON error naming it. */
import assert from "node:assert/strict";
import { createTestApp, fixture, makePremium, signUp, upload, waitForJobs } from "../setup/app-harness.ts";
import { HeldCompressor, taggedFile } from "../setup/held-compressor.ts";

const MB = 1024 * 1024;

async function setup(options: Parameters<typeof createTestApp>[0] = {}) {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor, ...options });
  const { cookie } = await signUp(t);
  return { t, cookie, compressor };
}

async function expectError(res: Response, status: number, pattern: RegExp) {
  assert.equal(res.status, status);
  const body = await res.json();
  assert.match(body.error, pattern);
}

async function nothingLeftBehind(t: Awaited<ReturnType<typeof createTestApp>>, cookie: string) {
  const { jobs } = await (await t.request("/api/jobs", { headers: { Cookie: cookie } })).json();
  assert.equal(jobs.length, 0);
  const { batches } = await (await t.request("/api/batches", { headers: { Cookie: cookie } })).json();
  assert.equal(batches.length, 0);
  const usage = await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json();
  assert.equal(usage.used, 0);
}

Deno.test("POST /api/compress needs a session (401)", async () => {
  const t = await createTestApp();
  const form = new FormData();
  form.append("images", taggedFile("a"));
  const res = await t.request("/api/compress", { method: "POST", body: form });
  assert.equal(res.status, 401);
  await t.close();
});

Deno.test("POST /api/compress rejects a lone PNG with 415 naming the file, leaving nothing behind", async () => {
  const { t, cookie } = await setup();
  const res = await upload(t, cookie, [await fixture("png-renamed.jpg", "sneaky.jpg")]);
  await expectError(res, 415, /'sneaky\.jpg'.*not a JPEG.*PNG/);
  await nothingLeftBehind(t, cookie);
  await t.close();
});

Deno.test("a bad file fails alone: the valid ones become jobs, the PNG and the giant a failed entry each, charged only for the valid", async () => {
  const { t, cookie, compressor } = await setup();
  const res = await upload(t, cookie, [
    taggedFile("ok1", "one.jpg"),
    await fixture("png-renamed.jpg", "sneaky.jpg"),
    taggedFile("ok2", "two.jpg"),
    await fixture("huge-dimensions.jpg", "giant.jpg"),
  ]);
  assert.equal(res.status, 201);
  const body = await res.json();
  assert.deepEqual(
    body.jobs.map((j: { filename: string; status: string }) => [j.filename, j.status]),
    [["one.jpg", "pending"], ["sneaky.jpg", "error"], ["two.jpg", "pending"], ["giant.jpg", "error"]],
  );
  assert.match(body.jobs[1].errorMessage, /^The file is not a JPEG image \(it looks like a PNG image\)$/);
  assert.match(body.jobs[3].errorMessage, /^This file is 60000×60000 \(3600\.0 MP\); the free plan allows 50 MP$/);
  assert.deepEqual(body.refused.map((r: { filename: string; status: number }) => [r.filename, r.status]), [
    ["sneaky.jpg", 415],
    ["giant.jpg", 413],
  ]);
  assert.equal(body.batch.totalFiles, 4);
  const usage = await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json();
  assert.equal(usage.used, 2, "only the accepted files are charged");
  const calls = await compressor.started(1);
  assert.equal(calls[0]!.tag, "ok1");
  calls[0]!.finish();
  (await compressor.started(2))[1]!.finish();
  await waitForJobs(t, cookie, (jobs) => jobs.filter((j) => j.status === "completed").length === 2);
  assert.equal(compressor.calls.length, 2, "refused files never reach the codec");
  await t.close();
});

Deno.test("POST /api/compress rejects a file over the free plan's 10 MB with 413", async () => {
  const { t, cookie } = await setup();
  const res = await upload(t, cookie, [taggedFile("big", "big.jpg", 10 * MB + 1)]);
  await expectError(res, 413, /larger than 10\.0 MB, the most the free plan allows per file/);
  await nothingLeftBehind(t, cookie);
  await t.close();
});

Deno.test("POST /api/compress lets Premium send a 20 MB file but not a 26 MB one", async () => {
  const { t, cookie } = await setup();
  await makePremium(t, "alice");
  assert.equal((await upload(t, cookie, [taggedFile("mid", "mid.jpg", 20 * MB)])).status, 201);
  await expectError(
    await upload(t, cookie, [taggedFile("huge", "huge.jpg", 26 * MB)]),
    413,
    /larger than 25\.0 MB, the most the premium plan allows per file/,
  );
  await t.close();
});

Deno.test("POST /api/compress refuses 101 files on the Premium plan with 400", async () => {
  const { t, cookie } = await setup();
  await makePremium(t, "alice");
  const files = Array.from({ length: 101 }, (_, i) => taggedFile(`f${i}`));
  await expectError(
    await upload(t, cookie, files),
    400,
    /Too many files: 101 or more in one upload; the premium plan allows 100/,
  );
  await t.close();
});

Deno.test("POST /api/compress stops a free upload at the first file past the day's quota (429)", async () => {
  const { t, cookie } = await setup();
  const files = Array.from({ length: 21 }, (_, i) => taggedFile(`f${i}`));
  await expectError(
    await upload(t, cookie, files),
    429,
    /Daily limit reached: 10 compressions per day on the free plan \(10 left today, 11 or more in this upload\)/,
  );
  await nothingLeftBehind(t, cookie);
  await t.close();
});

Deno.test("POST /api/compress refuses an image over the pixel limit before decoding (413)", async () => {
  const { t, cookie, compressor } = await setup();
  const res = await upload(t, cookie, [await fixture("huge-dimensions.jpg", "giant.jpg")]);
  await expectError(res, 413, /'giant\.jpg' is 60000×60000 \(3600\.0 MP\); the free plan allows 50 MP/);
  assert.equal(compressor.calls.length, 0);
  await t.close();
});

Deno.test("POST /api/compress answers 400 when no image is attached", async () => {
  const { t, cookie } = await setup();
  await expectError(await upload(t, cookie, [], { quality: "80" }), 400, /images/);
  const notMultipart = await t.request("/api/compress", {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: "{}",
  });
  assert.equal(notMultipart.status, 400);
  await t.close();
});

const badFields: Array<[string, string, RegExp]> = [
  ["quality", "0", /quality must be a whole number from 1 to 100/],
  ["quality", "101", /quality/],
  ["quality", "high", /quality/],
  ["format", "gif", /format must be one of jpeg, webp/],
  ["mode", "turbo", /mode must be one of speed, balanced, quality/],
  ["progressive", "yes", /progressive must be "true" or "false"/],
  ["mozjpeg", "1", /mozjpeg/],
  ["optimizeForWeb", "on", /optimizeForWeb/],
  ["stripMetadata", "nope", /stripMetadata/],
  ["chromaSubsampling", "4:1:1", /chromaSubsampling must be one of 4:4:4, 4:2:2, 4:2:0/],
  ["priority", "urgent", /priority must be one of low, normal, high/],
  ["maxConcurrent", "11", /maxConcurrent must be a whole number from 1 to 10/],
  ["pauseOnError", "maybe", /pauseOnError/],
];
for (const [field, value, pattern] of badFields) {
  Deno.test(`POST /api/compress rejects ${field}=${value} with 400 naming the field`, async () => {
    const { t, cookie } = await setup();
    await expectError(await upload(t, cookie, [taggedFile("a")], { [field]: value }), 400, pattern);
    await nothingLeftBehind(t, cookie);
    await t.close();
  });
}

Deno.test("POST /api/compress keeps targets for Premium: a free user gets 403", async () => {
  const { t, cookie } = await setup();
  await expectError(await upload(t, cookie, [taggedFile("a")], { target: '{"kind":"size","kb":100}' }), 403, /Premium/);
  await t.close();
});

Deno.test("POST /api/compress validates a Premium target", async () => {
  const { t, cookie, compressor } = await setup();
  await makePremium(t, "alice");
  await expectError(await upload(t, cookie, [taggedFile("a")], { target: "{nope" }), 400, /target must be JSON/);
  await expectError(await upload(t, cookie, [taggedFile("a")], { target: '{"kind":"size","kb":0}' }), 400, /target/);
  const ok = await upload(t, cookie, [taggedFile("a")], { target: '{"kind":"quality","score":92}' });
  assert.equal(ok.status, 201);
  const [call] = await compressor.started(1);
  assert.deepEqual(call!.settings.target, { kind: "quality", score: 92 });
  await t.close();
});

Deno.test("POST /api/compress passes every setting to the codec and records them on the job", async () => {
  const { t, cookie, compressor } = await setup();
  const fields = {
    quality: "63",
    format: "jpeg",
    encoder: "jpegli",
    mode: "quality",
    progressive: "true",
    mozjpeg: "false",
    optimizeForWeb: "false",
    stripMetadata: "false",
    chromaSubsampling: "4:4:4",
    maxWidth: "1280",
    maxHeight: "720",
    fit: "cover",
  };
  const res = await upload(t, cookie, [taggedFile("a")], fields);
  assert.equal(res.status, 201);
  const { jobs } = await res.json();
  const expected = {
    quality: 63,
    format: "jpeg",
    encoder: "jpegli",
    mode: "quality",
    progressive: true,
    mozjpeg: false,
    optimizeForWeb: false,
    stripMetadata: false,
    chromaSubsampling: "4:4:4",
    target: null,
    maxWidth: 1280,
    maxHeight: 720,
    fit: "cover",
    widths: null,
    formats: ["avif", "jpeg"],
    archive: false,
  };
  assert.deepEqual(jobs[0].settings, expected);
  const [call] = await compressor.started(1);
  assert.deepEqual(call!.settings, expected);
  await t.close();
});

Deno.test("30 parallel single-file uploads by a free user: exactly 10 are accepted", async () => {
  const { t, cookie } = await setup();
  const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => upload(t, cookie, [taggedFile(`p${i}`)])));
  const statuses = responses.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 201).length, 10);
  assert.equal(statuses.filter((s) => s === 429).length, 20);
  const refused = responses.find((r) => r.status === 429)!;
  assert.equal((await refused.json()).error, "Daily limit reached: 10 compressions per day on the free plan");
  await Promise.all(responses.filter((r) => !r.bodyUsed).map((r) => r.body?.cancel()));
  const usage = await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json();
  assert.equal(usage.used, 10);
  assert.equal(usage.limit, 10);
  assert.ok(new Date(usage.resetsAt).getTime() > Date.now());
  await t.close();
});

Deno.test("an upload bigger than what is left of the day's quota is refused whole", async () => {
  const { t, cookie } = await setup();
  assert.equal((await upload(t, cookie, Array.from({ length: 8 }, (_, i) => taggedFile(`a${i}`)))).status, 201);
  const res = await upload(t, cookie, Array.from({ length: 3 }, (_, i) => taggedFile(`b${i}`)));
  await expectError(res, 429, /Daily limit reached.*\(2 left today, 3 or more in this upload\)/);
  await t.close();
});

Deno.test("Premium has no daily limit but usage still counts", async () => {
  const { t, cookie } = await setup();
  await makePremium(t, "alice");
  for (let i = 0; i < 3; i++) {
    assert.equal((await upload(t, cookie, Array.from({ length: 5 }, (_, j) => taggedFile(`${i}-${j}`)))).status, 201);
  }
  const usage = await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json();
  assert.deepEqual([usage.used, usage.limit], [15, null]);
  await t.close();
});

Deno.test("a full byte store answers 503 with Retry-After instead of evicting work", async () => {
  const { t, cookie } = await setup({ maxStoreBytes: 2 * MB });
  assert.equal((await upload(t, cookie, [taggedFile("a", "a.jpg", 1.5 * MB)])).status, 201);
  const res = await upload(t, cookie, [taggedFile("b", "b.jpg", 1 * MB)]);
  assert.equal(res.status, 503);
  assert.equal(res.headers.get("retry-after"), "60");
  assert.match((await res.json()).error, /busy/);
  await t.close();
});

Deno.test("GET/PUT /api/settings remembers a user's settings and validates them", async () => {
  const { t, cookie } = await setup();
  const initial = await (await t.request("/api/settings", { headers: { Cookie: cookie } })).json();
  assert.equal(initial.settings.quality, 80);
  assert.equal(initial.settings.maxConcurrent, 3);
  const next = { ...initial.settings, quality: 55, format: "webp", maxConcurrent: 6 };
  const put = await t.request("/api/settings", {
    method: "PUT",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify(next),
  });
  assert.equal(put.status, 200);
  const again = await (await t.request("/api/settings", { headers: { Cookie: cookie } })).json();
  assert.deepEqual(again.settings, next);
  const bad = await t.request("/api/settings", {
    method: "PUT",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify({ ...next, quality: 0 }),
  });
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).error, /quality/);
  await t.close();
});

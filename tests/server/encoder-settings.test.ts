/** The `encoder` setting through the API: refused with WebP, kept with uploads, saved settings and re-compressions, reported per job. */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { compressImage } from "../../codecs/pipeline/compress.ts";
import {
  type CompressSettings,
  DEFAULT_SAVED_SETTINGS,
  DEFAULT_SETTINGS,
  ENCODER_FORMAT_ERROR,
} from "../../contract/settings.ts";
import { hashPassword } from "../../server/services/passwords.ts";
import {
  allSettled,
  createTestApp,
  fixture,
  jsonInit,
  sessionCookie,
  signUp,
  type TestApp,
  upload,
  waitForJobs,
} from "../setup/app-harness.ts";
import { HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { databaseBefore } from "../setup/database-before.ts";

interface JobView {
  id: string;
  status: string;
  encoder: string | null;
  format: string;
  keptOriginal: boolean;
  settings: CompressSettings;
  scorePending?: boolean;
  errorMessage: string | null;
}

const WEBP_JPEGLI = { ...DEFAULT_SETTINGS, format: "webp", encoder: "jpegli" };

/** A 400 whose JSON error names the encoder field once (its path: `settings.encoder` inside a body) and says why. */
async function expectEncoderError(res: Response, field = "encoder") {
  assert.equal(res.status, 400);
  assert.equal(res.headers.get("content-type")?.split(";")[0], "application/json");
  const { error } = await res.json();
  assert.equal(error, `${field}: ${ENCODER_FORMAT_ERROR}`);
}

const get = async (t: TestApp, cookie: string, path: string) => {
  const res = await t.request(path, { headers: { Cookie: cookie } });
  assert.equal(res.status, 200, path);
  return await res.json();
};

async function completedJob(t: TestApp, compressor: HeldCompressor, cookie: string, tag: string) {
  const before = compressor.calls.length; // the call may begin while the upload arrives (ADR 056)
  const { jobs: [job] } = await (await upload(t, cookie, [taggedFile(tag)])).json();
  (await compressor.started(before + 1)).at(-1)!.finish();
  await waitForJobs(t, cookie, (all) => all.find((j) => j.id === job.id)?.status === "completed");
  return job as JobView;
}

Deno.test("POST /api/compress refuses format=webp with encoder=jpegli with a 400 naming encoder, leaving nothing behind", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await expectEncoderError(await upload(t, cookie, [taggedFile("a")], { format: "webp", encoder: "jpegli" }));
  const bad = await upload(t, cookie, [taggedFile("a")], { encoder: "libjpeg" });
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).error, "encoder must be one of mozjpeg, jpegli");
  assert.deepEqual((await get(t, cookie, "/api/jobs")).jobs, []);
  assert.deepEqual((await get(t, cookie, "/api/batches")).batches, []);
  assert.equal((await get(t, cookie, "/api/usage")).used, 0);
  assert.equal(compressor.calls.length, 0);
  await t.close();
});

Deno.test("PUT /api/settings refuses WebP with jpegli (400 naming encoder) and keeps what was saved before", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const saved = { ...DEFAULT_SAVED_SETTINGS, encoder: "jpegli", quality: 72 };
  const ok = await t.request("/api/settings", jsonInit("PUT", saved, { Cookie: cookie }));
  assert.equal(ok.status, 200);
  await expectEncoderError(
    await t.request("/api/settings", jsonInit("PUT", { ...saved, format: "webp" }, { Cookie: cookie })),
  );
  assert.deepEqual((await get(t, cookie, "/api/settings")).settings, saved);
  await t.close();
});

Deno.test("PUT /api/settings remembers encoder jpegli, and encoder mozjpeg with WebP, across sign-ins", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t, "alice", "correct horse");
  assert.equal((await get(t, cookie, "/api/settings")).settings.encoder, "mozjpeg", "the default");
  const jpegli = { ...DEFAULT_SAVED_SETTINGS, encoder: "jpegli", chromaSubsampling: "4:2:2", progressive: true };
  const res = await t.request("/api/settings", jsonInit("PUT", jpegli, { Cookie: cookie }));
  assert.equal(res.status, 200);
  assert.deepEqual((await res.json()).settings, jpegli);
  const login = await t.request("/api/login", jsonInit("POST", { username: "alice", password: "correct horse" }));
  assert.equal(login.status, 200);
  const again = sessionCookie(login);
  assert.deepEqual((await get(t, again, "/api/settings")).settings, jpegli);
  const webp = { ...DEFAULT_SAVED_SETTINGS, format: "webp", encoder: "mozjpeg" };
  assert.equal((await t.request("/api/settings", jsonInit("PUT", webp, { Cookie: again }))).status, 200);
  assert.deepEqual((await get(t, cookie, "/api/settings")).settings, webp);
  await t.close();
});

Deno.test("POST /api/jobs/:id/recompress refuses WebP with jpegli (400 naming encoder) and starts no job", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  const done = await completedJob(t, compressor, cookie, "photo");
  const recompress = (path: string) => t.request(path, jsonInit("POST", { settings: WEBP_JPEGLI }, { Cookie: cookie }));
  // Nested under `settings`, the message reads "settings.encoder: encoder: …" (reported, not asserted).
  await expectEncoderError(await recompress(`/api/jobs/${done.id}/recompress`), "settings.encoder");
  const [batch] = (await get(t, cookie, "/api/batches")).batches;
  await expectEncoderError(await recompress(`/api/batches/${batch.id}/recompress`), "settings.encoder");
  assert.equal((await get(t, cookie, "/api/jobs")).jobs.length, 1);
  assert.equal(compressor.calls.length, 1);
  await t.close();
});

Deno.test("an upload with encoder=jpegli reaches the codecs with it, and the job reports the encoder that made its bytes (none for a kept original)", async () => {
  const compressor = new HeldCompressor(1);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  const res = await upload(t, cookie, [taggedFile("made"), taggedFile("kept")], { encoder: "jpegli", quality: "75" });
  assert.equal(res.status, 201);
  const { jobs } = await res.json();
  for (const job of jobs) {
    assert.equal(job.settings.encoder, "jpegli");
    assert.equal(job.encoder, null, "no encoder until completed");
  }
  const made = (await compressor.started(1))[0]!;
  assert.equal(made.tag, "made");
  assert.equal(made.settings.encoder, "jpegli");
  made.finish({ encoder: "jpegli" });
  const kept = (await compressor.started(2))[1]!;
  assert.equal(kept.settings.encoder, "jpegli");
  // A compressor that (wrongly) names an encoder for the original's bytes: the job still reports none.
  kept.finish({ keptOriginal: true, encoder: "jpegli" });
  const done: JobView[] = await waitForJobs(t, cookie, (all) => all.every((j) => j.status === "completed"));
  const byId = new Map(done.map((j) => [j.id, j]));
  assert.equal(byId.get(jobs[0].id)!.encoder, "jpegli");
  assert.equal(byId.get(jobs[1].id)!.keptOriginal, true);
  assert.equal(byId.get(jobs[1].id)!.encoder, null);
  const [batch] = (await get(t, cookie, "/api/batches")).batches;
  assert.deepEqual(batch.jobs.map((j: JobView) => j.encoder), ["jpegli", null]);
  await t.close();
});

Deno.test("with the real codecs, a jpegli upload completes as jpegli's bytes and a re-compress with mozjpeg as MozJPEG's", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const file = await fixture("metadata-all.jpg", "holiday.jpg");
    const original = new Uint8Array(await file.arrayBuffer());
    const res = await upload(t, cookie, [file], { encoder: "jpegli" });
    assert.equal(res.status, 201);
    const { jobs: [uploaded] } = await res.json();
    assert.equal(uploaded.settings.encoder, "jpegli");

    const [first]: JobView[] = await waitForJobs(t, cookie, allSettled);
    assert.equal(first!.status, "completed", first!.errorMessage ?? "");
    assert.equal(first!.encoder, "jpegli");
    assert.equal(first!.settings.encoder, "jpegli");
    assert.equal((await get(t, cookie, "/api/batches")).batches[0].jobs[0].encoder, "jpegli");

    // The bytes are jpegli's: the same as the pipeline makes in-process with these settings.
    const expectBytes = async (id: string, settings: CompressSettings) => {
      const dl = await t.request(`/api/download/${id}`, { headers: { Cookie: cookie } });
      assert.equal(dl.status, 200);
      const local = await compressImage(new AbortController().signal, { bytes: original, settings, maxPixels: 50e6 });
      assert.deepEqual(new Uint8Array(await dl.arrayBuffer()), local.bytes);
      return local;
    };
    assert.equal((await expectBytes(first!.id, { ...DEFAULT_SETTINGS, encoder: "jpegli" })).encoder, "jpegli");

    const again = await t.request(
      `/api/jobs/${first!.id}/recompress`,
      jsonInit("POST", { settings: { ...DEFAULT_SETTINGS, encoder: "mozjpeg" } }, { Cookie: cookie }),
    );
    assert.equal(again.status, 201);
    const { jobs: [second] } = await again.json();
    assert.equal(second.settings.encoder, "mozjpeg");
    assert.equal(second.sourceJobId, first!.id);
    const all: JobView[] = await waitForJobs(t, cookie, (jobs) => jobs.length === 2 && allSettled(jobs));
    const redone = all.find((j) => j.id === second.id)!;
    assert.equal(redone.status, "completed", redone.errorMessage ?? "");
    assert.equal(redone.encoder, "mozjpeg");
    assert.equal(all.find((j) => j.id === first!.id)!.encoder, "jpegli", "the first result is unchanged");
    assert.equal((await expectBytes(redone.id, DEFAULT_SETTINGS)).encoder, "mozjpeg");
  } finally {
    await t.close();
  }
});

/** A database at migration 0005 (before `encoder` existed). */
async function databaseBeforeEncoder(dir: string): Promise<string> {
  const url = await databaseBefore(dir, "0006_encoder");
  const client = createClient({ url });
  try {
    const columns = await client.execute("SELECT name FROM pragma_table_info('jobs')");
    assert.ok(!columns.rows.some((r) => r.name === "encoder"), "a database from before the encoder column");
  } finally {
    client.close();
  }
  return url;
}

Deno.test("migration 0006 gives settings stored before the encoder existed encoder mozjpeg, and their completed jobs the encoder that made them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = await databaseBeforeEncoder(dir);
    // Rows as the previous build wrote them: settings JSON without `encoder`.
    const { encoder: _, ...oldSettings } = DEFAULT_SETTINGS;
    const oldSaved = { ...oldSettings, quality: 61, priority: "high", maxConcurrent: 2, pauseOnError: true };
    const client = createClient({ url });
    try {
      await client.execute({
        sql:
          "INSERT INTO users (id, username, password_hash, settings_json) VALUES (1, 'olduser', ?, ?), (2, 'fresh', ?, NULL)",
        args: [await hashPassword("correct horse"), JSON.stringify(oldSaved), await hashPassword("correct horse")],
      });
      const batch = (id: string, settings: object) => ({
        sql: "INSERT INTO batches (id, user_id, name, status, total_files, total_original_size, settings_json) " +
          "VALUES (?, 1, ?, 'completed', 1, 1000, ?)",
        args: [id, id, JSON.stringify(settings)],
      });
      await client.execute(batch("b-jpeg", oldSettings));
      await client.execute(batch("b-webp", { ...oldSettings, format: "webp" }));
      await client.execute(batch("b-kept", oldSettings));
      const job = (id: string, batchId: string, format: string, kept: number) => ({
        sql: "INSERT INTO jobs (id, batch_id, user_id, seq, filename, status, progress, original_size, " +
          "compressed_size, quality, format, kept_original, completed_at) " +
          "VALUES (?, ?, 1, 0, ?, 'completed', 100, 1000, ?, 80, ?, ?, ?)",
        args: [id, batchId, `${id}.jpg`, kept ? 1000 : 500, format, kept, Date.now()],
      });
      await client.execute(job("j-jpeg", "b-jpeg", "jpeg", 0));
      await client.execute(job("j-webp", "b-webp", "webp", 0));
      await client.execute(job("j-kept", "b-kept", "jpeg", 1));
    } finally {
      client.close();
    }

    // The app starts on it: migration 0006 runs.
    const t = await createTestApp({ databaseUrl: url });
    try {
      const login = await t.request("/api/login", jsonInit("POST", { username: "olduser", password: "correct horse" }));
      assert.equal(login.status, 200);
      const cookie = sessionCookie(login);
      assert.deepEqual((await get(t, cookie, "/api/settings")).settings, { ...oldSaved, encoder: "mozjpeg" });

      const { jobs }: { jobs: JobView[] } = await get(t, cookie, "/api/jobs");
      const byId = new Map(jobs.map((j) => [j.id, j]));
      assert.equal(jobs.length, 3);
      for (const j of jobs) assert.equal(j.settings.encoder, "mozjpeg", j.id);
      assert.equal(byId.get("j-jpeg")!.encoder, "mozjpeg");
      assert.equal(byId.get("j-webp")!.encoder, "webp");
      assert.equal(byId.get("j-webp")!.settings.format, "webp");
      assert.equal(byId.get("j-kept")!.encoder, null, "a kept original was made by no encoder");
      assert.equal((await get(t, cookie, "/api/batches")).batches.length, 3);

      // A user who never saved settings has none written by the migration: the defaults.
      const fresh = await t.request("/api/login", jsonInit("POST", { username: "fresh", password: "correct horse" }));
      assert.deepEqual((await get(t, sessionCookie(fresh), "/api/settings")).settings, DEFAULT_SAVED_SETTINGS);
    } finally {
      await t.close();
    }
    const check = createClient({ url });
    try {
      const rows = await check.execute("SELECT settings_json FROM users WHERE id = 2");
      assert.equal(rows.rows[0]!.settings_json, null);
    } finally {
      check.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

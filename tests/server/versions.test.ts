/**
 * Versions counted once, named by settings (issue 24, item 4): a re-compression is a new version of the
 * same photo (`sourceJobId ?? id`); the ZIPs hold each photo's latest version under its own name, or with
 * `?versions=all` every version named by its settings, and never a `(2)` suffix.
 */
import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { createTestApp, jsonInit, signUp, type TestApp, upload, waitForJobs } from "../setup/app-harness.ts";
import { HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { DEFAULT_SETTINGS } from "../../contract/settings.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function zipOf(t: TestApp, cookie: string, path: string) {
  const res = await t.request(path, { headers: { Cookie: cookie } });
  assert.equal(res.status, 200, path);
  const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
  return { disposition: res.headers.get("content-disposition")!, entries };
}

/** Finishes held calls up to the `total`-th as they start, each result's bytes marked with its call's number. */
async function finishAll(t: TestApp, compressor: HeldCompressor, cookie: string, total: number) {
  for (let i = 1; i <= total; i++) {
    const call = (await compressor.started(i))[i - 1]!;
    if (!finished.has(call)) call.finish({ bytes: new TextEncoder().encode(`result-${i}`), compressedSize: 8 });
    finished.add(call);
  }
  await waitForJobs(t, cookie, (all) => all.every((j) => j.status === "completed"));
}
const finished = new WeakSet<object>();

const recompress = (t: TestApp, path: string, cookie: string, settings: object) =>
  t.request(path, jsonInit("POST", { settings: { ...DEFAULT_SETTINGS, ...settings } }, { Cookie: cookie }));

Deno.test("after re-compressing 3 photos, Download all holds 3 entries: the latest versions under their own names", async () => {
  const compressor = new HeldCompressor(4);
  const t = await createTestApp({ compressor });
  try {
    const { cookie } = await signUp(t);
    const { batch } = await (await upload(t, cookie, ["beach", "dog", "cat"].map((n) => taggedFile(n)))).json();
    await finishAll(t, compressor, cookie, 3);
    const res = await recompress(t, `/api/batches/${batch.id}/recompress`, cookie, { quality: 70 });
    assert.equal(res.status, 201);
    await finishAll(t, compressor, cookie, 6);

    const all = await zipOf(t, cookie, "/api/jobs/download.zip");
    assert.deepEqual(Object.keys(all.entries).sort(), ["beach.jpg", "cat.jpg", "dog.jpg"]);
    for (const bytes of Object.values(all.entries)) assert.match(text(bytes), /^result-[456]$/, "the latest version");
    const day = new Date().toISOString().slice(0, 10);
    assert.match(all.disposition, new RegExp(`squeezejpeg-${day}-3-images\\.zip`));

    // The first batch's ZIP holds its photos at their latest versions too.
    const first = await zipOf(t, cookie, `/api/batches/${batch.id}/download.zip`);
    assert.deepEqual(Object.keys(first.entries).sort(), ["beach.jpg", "cat.jpg", "dog.jpg"]);
    for (const bytes of Object.values(first.entries)) assert.match(text(bytes), /^result-[456]$/);

    // Every version, named by its settings.
    const versions = await zipOf(t, cookie, "/api/jobs/download.zip?versions=all");
    assert.deepEqual(Object.keys(versions.entries).sort(), [
      "beach.q70.jpg",
      "beach.q80.jpg",
      "cat.q70.jpg",
      "cat.q80.jpg",
      "dog.q70.jpg",
      "dog.q80.jpg",
    ]);
    assert.match(versions.disposition, new RegExp(`squeezejpeg-${day}-6-versions\\.zip`));
    const batchVersions = await zipOf(t, cookie, `/api/batches/${batch.id}/download.zip?versions=all`);
    assert.equal(Object.keys(batchVersions.entries).length, 6);
    assert.match(batchVersions.disposition, /all-versions\.zip/);
  } finally {
    await t.close();
  }
});

Deno.test("no (2) suffixes: same settings twice are numbered by version, different uploads by their upload time", async () => {
  const compressor = new HeldCompressor(4);
  let now = Date.parse("2026-11-25T12:10:00Z");
  const t = await createTestApp({ compressor, now: () => now });
  try {
    const { cookie } = await signUp(t);
    const { jobs: [first] } = await (await upload(t, cookie, [taggedFile("beach")])).json();
    await finishAll(t, compressor, cookie, 1);
    now += 60_000;
    // A different photo with the same name, uploaded later.
    await upload(t, cookie, [taggedFile("other", "beach.jpg")]);
    await finishAll(t, compressor, cookie, 2);
    now += 60_000;
    const { jobs: [second] } = await (await recompress(t, `/api/jobs/${first.id}/recompress`, cookie, { quality: 60 }))
      .json();
    await finishAll(t, compressor, cookie, 3);
    now += 60_000;
    await recompress(t, `/api/jobs/${second.id}/recompress`, cookie, { quality: 60 });
    await finishAll(t, compressor, cookie, 4);

    const latest = Object.keys((await zipOf(t, cookie, "/api/jobs/download.zip")).entries).sort();
    assert.equal(latest.length, 2, "two photos");
    assert.ok(latest.every((n) => !n.includes("(")), latest.join());
    assert.ok(latest.includes("beach.jpg"));
    assert.ok(latest.includes("beach.uploaded-2026-11-25-1211.jpg"), latest.join());

    const all = Object.keys((await zipOf(t, cookie, "/api/jobs/download.zip?versions=all")).entries).sort();
    assert.equal(all.length, 4);
    assert.ok(all.every((n) => !n.includes("(")), all.join());
    assert.ok(all.includes("beach.q60.jpg") && all.includes("beach.q60.v2.jpg"), all.join());
    assert.ok(all.includes("beach.q80.jpg"), "the first upload keeps its name");
    assert.ok(all.includes("beach.q80.uploaded-2026-11-25-1211.jpg"), "the later upload is told by its time");
  } finally {
    await t.close();
  }
});

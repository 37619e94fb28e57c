/** The compression API end to end on the real WASM pool. */
import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { inspectJpeg } from "../../codecs/mod.ts";
import { allSettled, createTestApp, fixture, signUp, upload, waitForJobs } from "../setup/app-harness.ts";

Deno.test("POST /api/compress compresses photos; download serves a smaller JPEG and preview the original", async () => {
  const t = await createTestApp({ pool: 2 });
  try {
    const { cookie } = await signUp(t);
    const files = [await fixture("metadata-all.jpg", "holiday.jpg"), await fixture("icc-adobergb.jpg", "Café ☕.jpeg")];
    const res = await upload(t, cookie, files, { quality: "70", mode: "balanced" });
    assert.equal(res.status, 201);
    const { jobs, batch } = await res.json();
    assert.equal(jobs.length, 2);
    assert.equal(batch.totalFiles, 2);
    assert.equal(batch.totalOriginalSize, files[0]!.size + files[1]!.size);
    assert.ok(jobs.every((j: { status: string; batchId: string }) => j.status === "pending" && j.batchId === batch.id));

    const done = await waitForJobs(t, cookie, allSettled);
    for (const job of done) {
      assert.equal(job.status, "completed", job.errorMessage);
      assert.equal(job.progress, 100);
      assert.equal(job.quality, 70);
      assert.ok(job.compressedSize < job.originalSize);
      assert.ok(job.scores.overall > 0 && job.scores.overall <= 100);
      assert.ok(job.scores.ssimulacra2 > 50);
      assert.ok(job.expiresAt);
      assert.equal(job.expired, false);

      const dl = await t.request(`/api/download/${job.id}`, { headers: { Cookie: cookie } });
      assert.equal(dl.status, 200);
      assert.equal(dl.headers.get("content-type"), "image/jpeg");
      const bytes = new Uint8Array(await dl.arrayBuffer());
      assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff]);
      assert.equal(bytes.length, job.compressedSize);
      const disposition = dl.headers.get("content-disposition") ?? "";
      assert.match(disposition, /^attachment; filename="/);
      assert.match(disposition, /filename\*=UTF-8''/);

      const preview = await t.request(`/api/preview/${job.id}`, { headers: { Cookie: cookie } });
      assert.equal(preview.status, 200);
      assert.equal((await preview.arrayBuffer()).byteLength, job.originalSize);

      const thumb = await t.request(`/api/preview/${job.id}?size=thumb`, { headers: { Cookie: cookie } });
      assert.equal(thumb.status, 200);
      assert.equal(thumb.headers.get("content-type"), "image/jpeg");
      const { width, height } = inspectJpeg(new Uint8Array(await thumb.arrayBuffer()));
      assert.ok(
        Math.min(width, height) >= Math.min(128, job.width, job.height) && width <= job.width,
        `${width}×${height}`,
      );
      assert.equal(width / height > 1, job.width / job.height > 1, "the thumbnail is upright like the result");
    }
    const bad = await t.request(`/api/preview/${done[0].id}?size=huge`, { headers: { Cookie: cookie } });
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).error, /^size: /);
    const cafe = done.find((j: { filename: string }) => j.filename === "Café ☕.jpeg");
    const dl = await t.request(`/api/download/${cafe.id}`, { headers: { Cookie: cookie } });
    assert.match(
      dl.headers.get("content-disposition") ?? "",
      /filename="Caf_ _\.jpg"; filename\*=UTF-8''Caf%C3%A9%20%E2%98%95\.jpg/,
    );
    await dl.body?.cancel();

    const usage = await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json();
    assert.equal(usage.used, 2);
    assert.equal(usage.limit, 10);
  } finally {
    await t.close();
  }
});

Deno.test("WebP output is served as image/webp under a .webp name", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const res = await upload(t, cookie, [await fixture("metadata-all.jpg", "shot.jpg")], { format: "webp" });
    assert.equal(res.status, 201);
    const [job] = await waitForJobs(t, cookie, allSettled);
    assert.equal(job.status, "completed", job.errorMessage);
    assert.equal(job.format, "webp");
    const dl = await t.request(`/api/download/${job.id}`, { headers: { Cookie: cookie } });
    assert.equal(dl.headers.get("content-type"), "image/webp");
    assert.match(dl.headers.get("content-disposition") ?? "", /shot\.webp/);
    const bytes = new Uint8Array(await dl.arrayBuffer());
    assert.equal(new TextDecoder().decode(bytes.subarray(8, 12)), "WEBP");
  } finally {
    await t.close();
  }
});

Deno.test("a corrupt JPEG fails its own job with a clear message, refunds its quota, and the batch goes on", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const files = [await fixture("corrupt-scan.jpg", "broken.jpg"), await fixture("metadata-all.jpg", "fine.jpg")];
    assert.equal((await upload(t, cookie, files)).status, 201);
    const jobs = await waitForJobs(t, cookie, allSettled);
    const broken = jobs.find((j: { filename: string }) => j.filename === "broken.jpg");
    const fine = jobs.find((j: { filename: string }) => j.filename === "fine.jpg");
    assert.equal(broken.status, "error");
    assert.match(broken.errorMessage, /^Cannot decode the image/);
    assert.equal(fine.status, "completed");
    const usage = await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json();
    assert.equal(usage.used, 1, "the failed job gave its unit back");
    const { batches } = await (await t.request("/api/batches", { headers: { Cookie: cookie } })).json();
    assert.equal(batches[0].status, "completed");
  } finally {
    await t.close();
  }
});

Deno.test("the batch ZIP holds exactly the completed files, named like the downloads", async () => {
  const t = await createTestApp({ pool: 2 });
  try {
    const { cookie } = await signUp(t);
    const files = [
      await fixture("metadata-all.jpg", "a.jpg"),
      await fixture("metadata-all.jpg", "a.jpg"),
      await fixture("truncated.jpg", "bad.jpg"),
      await fixture("icc-adobergb.jpg", "b.jpeg"),
    ];
    const { batch } = await (await upload(t, cookie, files)).json();
    const jobs = await waitForJobs(t, cookie, allSettled);
    assert.equal(jobs.filter((j: { status: string }) => j.status === "completed").length, 3);
    const res = await t.request(`/api/batches/${batch.id}/download.zip`, { headers: { Cookie: cookie } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/zip");
    const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
    // Two files of one upload sharing a name: the second is told by its place in the upload (issue 24, item 4).
    assert.deepEqual(Object.keys(entries).sort(), ["a.file2.jpg", "a.jpg", "b.jpg"]);
    for (const bytes of Object.values(entries)) assert.deepEqual([...bytes.subarray(0, 2)], [0xff, 0xd8]);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/jobs/download.zip holds every completed result of the user, under squeezejpeg-DAY-N-images.zip", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const other = (await signUp(t, "bob")).cookie;
    assert.equal((await t.request("/api/jobs/download.zip", { headers: { Cookie: cookie } })).status, 409);
    await upload(t, cookie, [await fixture("metadata-all.jpg", "a.jpg"), await fixture("truncated.jpg", "bad.jpg")]);
    await upload(t, cookie, [await fixture("icc-adobergb.jpg", "b.jpeg")]);
    await upload(t, other, [await fixture("metadata-all.jpg", "bobs.jpg")]);
    await waitForJobs(t, cookie, allSettled);
    await waitForJobs(t, other, allSettled);
    const res = await t.request("/api/jobs/download.zip", { headers: { Cookie: cookie } });
    assert.equal(res.status, 200);
    const day = new Date().toISOString().slice(0, 10);
    assert.match(res.headers.get("content-disposition")!, new RegExp(`filename="squeezejpeg-${day}-2-images\\.zip"`));
    const entries = Object.keys(unzipSync(new Uint8Array(await res.arrayBuffer()))).sort();
    assert.deepEqual(entries, ["a.jpg", "b.jpg"], "the failed job and the other user's are not in it");
  } finally {
    await t.close();
  }
});

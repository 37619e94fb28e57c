/** AVIF output through the compression API on the real WASM pool (issue 30, item 3). */
import assert from "node:assert/strict";
import { sniffFormat } from "../../codecs/mod.ts";
import { allSettled, createTestApp, fixture, signUp, upload, waitForJobs } from "../setup/app-harness.ts";

Deno.test("format=avif makes an AVIF job: encoder avif, served as image/avif under a .avif name, scored", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const files = [await fixture("metadata-all.jpg", "shot.jpg")];
    const res = await upload(t, cookie, files, { format: "avif", quality: "60", stripMetadata: "false" });
    assert.equal(res.status, 201);
    const [job] = await waitForJobs(t, cookie, allSettled, 60_000);
    assert.equal(job.status, "completed", job.errorMessage);
    assert.equal(job.format, "avif");
    assert.equal(job.encoder, "avif");
    assert.equal(job.settings.format, "avif");
    assert.ok(job.compressedSize < job.originalSize);
    // The deferred score was measured on the stored AVIF (its decoder found by its bytes).
    assert.ok(job.scores.ssimulacra2 > 50 && job.scores.ssimulacra2 < 100, JSON.stringify(job.scores));
    assert.deepEqual(job.metadata.kept, ["EXIF", "GPS", "ICC profile"]);
    assert.deepEqual(job.metadata.removed, ["XMP", "IPTC", "Comment"]);

    const dl = await t.request(`/api/download/${job.id}`, { headers: { Cookie: cookie } });
    assert.equal(dl.status, 200);
    assert.equal(dl.headers.get("content-type"), "image/avif");
    assert.match(dl.headers.get("content-disposition") ?? "", /filename="shot\.avif"/);
    const bytes = new Uint8Array(await dl.arrayBuffer());
    assert.equal(sniffFormat(bytes), "avif");
    assert.equal(bytes.length, job.compressedSize);
  } finally {
    await t.close();
  }
});

/** JPEG XL through the API on the real WASM pool (issue 32): format=jxl, archive, and restore. */
import assert from "node:assert/strict";
import { sniffFormat } from "../../codecs/mod.ts";
import { V1, V1_HEADERS } from "../../contract/api-keys.ts";
import { ARCHIVE_ERROR } from "../../contract/settings.ts";
import { bearer, createKey, v1Compress } from "../setup/api-keys.ts";
import { allSettled, createTestApp, fixture, signUp, upload, waitForJobs } from "../setup/app-harness.ts";

const restoreV1 = (t: Awaited<ReturnType<typeof createTestApp>>, key: string, body: BodyInit) =>
  t.request(V1.restore, { method: "POST", headers: bearer(key, { "Content-Type": "image/jxl" }), body });

Deno.test("format=jxl: a JPEG XL job named .jxl holding the JPEG the settings make; its size and the JPEG's", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const res = await upload(t, cookie, [await fixture("metadata-all.jpg", "shot.jpg")], {
      format: "jxl",
      quality: "70",
    });
    assert.equal(res.status, 201, await res.clone().text());
    const [job] = await waitForJobs(t, cookie, allSettled, 60_000);
    assert.equal(job.status, "completed", job.errorMessage);
    assert.equal(job.format, "jxl");
    assert.equal(job.encoder, "mozjpeg");
    assert.ok(job.heldSize > job.compressedSize, `the JPEG ${job.heldSize} B, its JPEG XL ${job.compressedSize} B`);
    assert.ok(job.scores.ssimulacra2 > 50, "the deferred score measured the JPEG it holds");
    const dl = await t.request(`/api/download/${job.id}`, { headers: { Cookie: cookie } });
    assert.equal(dl.headers.get("content-type"), "image/jxl");
    assert.match(dl.headers.get("content-disposition") ?? "", /filename="shot\.jxl"/);
    const jxl = new Uint8Array(await dl.arrayBuffer());
    assert.equal(sniffFormat(jxl), "jxl");

    // Compare's view of it: the JPEG it holds, inline.
    const shown = await t.request(`/api/download/${job.id}?as=jpeg`, { headers: { Cookie: cookie } });
    assert.equal(shown.headers.get("content-type"), "image/jpeg");
    assert.match(shown.headers.get("content-disposition") ?? "", /^inline; filename="shot\.jpg"/);
    assert.equal(sniffFormat(new Uint8Array(await shown.arrayBuffer())), "jpeg");

    // Restore in the web app: the JPEG it holds, named .jpg.
    const back = await t.request("/api/restore?name=shot.jxl", {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "image/jxl" },
      body: jxl,
    });
    assert.equal(back.status, 200, await back.clone().text());
    assert.equal(back.headers.get("content-type"), "image/jpeg");
    assert.match(back.headers.get("content-disposition") ?? "", /filename="shot\.jpg"/);
    assert.equal((await back.arrayBuffer()).byteLength, job.heldSize);
  } finally {
    await t.close();
  }
});

Deno.test("/api/v1: archive=true keeps the upload itself; /api/v1/restore gives back its bytes; refusals say why", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const { key } = await createKey(t, cookie);
    const original = new Uint8Array(await (await fixture("progressive.jpg")).arrayBuffer());
    // Free users may archive: it counts as a compression.
    const res = await v1Compress(t, key, new Blob([original]), "format=jxl&archive=true");
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get("content-type"), "image/jxl");
    assert.equal(res.headers.get(V1_HEADERS.count), "1");
    const jxl = new Uint8Array(await res.arrayBuffer());
    assert.ok(jxl.length < original.length);

    const back = await restoreV1(t, key, jxl);
    assert.equal(back.status, 200, await back.clone().text());
    assert.deepEqual(new Uint8Array(await back.arrayBuffer()), original, "byte for byte");
    assert.equal(back.headers.get(V1_HEADERS.compressedSize), String(original.length));

    const jpeg = await restoreV1(t, key, original);
    assert.equal(jpeg.status, 415);
    assert.match(
      (await jpeg.json()).error,
      /^Restore takes a JPEG XL file \(\.jxl\) made from a JPEG; this file is JPEG$/,
    );
    const cut = await restoreV1(t, key, jxl.slice(0, jxl.length >> 1));
    assert.equal(cut.status, 422);
    assert.match((await cut.json()).error, /incomplete/);
    const archivedWebp = await v1Compress(t, key, new Blob([original]), "format=webp&archive=true");
    assert.equal(archivedWebp.status, 400);
    assert.equal((await archivedWebp.json()).error, ARCHIVE_ERROR);
  } finally {
    await t.close();
  }
});

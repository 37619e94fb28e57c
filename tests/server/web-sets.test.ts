/** Web sets through the API on the real WASM pool (issue 30, item 5): one job, its files, its ZIP and its markup. */
import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { inspectJpeg } from "../../codecs/mod.ts";
import type { Job } from "../../contract/jobs.ts";
import { allSettled, createTestApp, fixture, makePremium, signUp, upload, waitForJobs } from "../setup/app-harness.ts";
import { createKey, v1Compress } from "../setup/api-keys.ts";

Deno.test("a Premium upload with widths and formats makes one job whose result is the set, every file at auto", async () => {
  // Two workers: the set, alone, is split over both (ADR 038) and joined in width order.
  const t = await createTestApp({ pool: 2 });
  try {
    const { cookie } = await signUp(t);
    await makePremium(t, "alice");
    // base.jpg is 128×96: 200 is wider than the photo and is left out.
    const res = await upload(t, cookie, [await fixture("base.jpg", "beach.jpg")], {
      widths: "64,100,200",
      formats: "webp,jpeg",
    });
    assert.equal(res.status, 201, await res.clone().text());
    const [job] = await waitForJobs(t, cookie, allSettled) as unknown as Job[];
    assert.equal(job!.status, "completed", job!.errorMessage ?? "");
    const set = job!.webSet!;
    assert.equal(set.name, "beach");
    assert.deepEqual(
      set.files.map((f) => [f.file, f.format, f.width, f.height]),
      [
        ["beach-100.webp", "webp", 100, 75],
        ["beach-100.jpg", "jpeg", 100, 75],
        ["beach-64.webp", "webp", 64, 48],
        ["beach-64.jpg", "jpeg", 64, 48],
      ],
    );
    for (const f of set.files) assert.ok(f.score >= 80 && f.score <= 90, `${f.file} scored ${f.score}`);
    assert.equal(
      job!.scores!.ssimulacra2,
      Math.min(...set.files.map((f) => f.score)),
      "the job's score is the weakest",
    );

    const dl = await t.request(`/api/download/${job!.id}`, { headers: { Cookie: cookie } });
    assert.equal(dl.headers.get("content-type"), "application/zip");
    assert.match(dl.headers.get("content-disposition") ?? "", /filename="beach\.zip"/);
    const zip = unzipSync(new Uint8Array(await dl.arrayBuffer()));
    assert.deepEqual(Object.keys(zip).sort(), [
      "beach/beach-100.jpg",
      "beach/beach-100.webp",
      "beach/beach-64.jpg",
      "beach/beach-64.webp",
      "beach/manifest.json",
      "beach/picture.html",
    ]);
    for (const f of set.files) assert.equal(zip[`beach/${f.file}`]!.length, f.bytes, `${f.file}'s size`);
    assert.deepEqual(inspectJpeg(zip["beach/beach-64.jpg"]!).width, 64);
    const manifest = JSON.parse(new TextDecoder().decode(zip["beach/manifest.json"]));
    assert.deepEqual(manifest.files, set.files);
    const html = new TextDecoder().decode(zip["beach/picture.html"]);
    assert.match(html, /<source type="image\/webp" srcset="beach-64\.webp 64w, beach-100\.webp 100w" sizes="100vw">/);
    assert.match(html, /<img src="beach-100\.jpg" srcset="beach-64\.jpg 64w, beach-100\.jpg 100w" sizes="100vw"/);
    assert.match(html, /width="100" height="75" alt="" loading="lazy" decoding="async">/);

    // The batch's ZIP holds the set's files in the photo's folder, not a ZIP in a ZIP.
    const all = await t.request("/api/jobs/download.zip", { headers: { Cookie: cookie } });
    assert.deepEqual(Object.keys(unzipSync(new Uint8Array(await all.arrayBuffer()))).sort(), Object.keys(zip).sort());
  } finally {
    await t.close();
  }
});

Deno.test("web sets are Premium: a free upload with widths answers 403 naming the field", async () => {
  const t = await createTestApp();
  try {
    const { cookie } = await signUp(t);
    const res = await upload(t, cookie, [await fixture("base.jpg")], { widths: "64" });
    assert.equal(res.status, 403);
    assert.match((await res.json()).error, /^widths: web sets are a Premium feature/);
    const bad = await upload(t, cookie, [await fixture("base.jpg")], { widths: "64,64" });
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).error, /^widths must be 1 to 8 different whole numbers/);
    const badFormat = await upload(t, cookie, [await fixture("base.jpg")], { formats: "jpeg,gif" });
    assert.equal(badFormat.status, 400);
    assert.match((await badFormat.json()).error, /^formats must be one or more of/);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/v1/compress?widths=…&formats=… answers the set's ZIP", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    await makePremium(t, "alice");
    const { key } = await createKey(t, cookie);
    const res = await v1Compress(t, key, await fixture("base.jpg"), "widths=64,128&formats=jpeg");
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get("content-type"), "application/zip");
    const body = new Uint8Array(await res.arrayBuffer());
    assert.equal(Number(res.headers.get("Compressed-Size")), body.length);
    assert.deepEqual(Object.keys(unzipSync(body)).sort(), [
      "image/image-128.jpg",
      "image/image-64.jpg",
      "image/manifest.json",
      "image/picture.html",
    ]);
  } finally {
    await t.close();
  }
});

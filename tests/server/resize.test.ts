/** Resize through the web upload, the saved settings and the developer API, on the real WASM pool. */
import assert from "node:assert/strict";
import { inspectJpeg } from "../../codecs/mod.ts";
import { allSettled, createTestApp, fixture, jsonInit, signUp, upload, waitForJobs } from "../setup/app-harness.ts";
import { createKey, v1Compress } from "../setup/api-keys.ts";

Deno.test("POST /api/compress with maxWidth and maxHeight: the job, its download and its score are the resized photo's", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const res = await upload(t, cookie, [await fixture("base.jpg")], { maxWidth: "64", maxHeight: "64", fit: "cover" });
    assert.equal(res.status, 201, await res.clone().text());
    const [job] = await waitForJobs(t, cookie, allSettled);
    assert.equal(job!.status, "completed");
    const view = job as unknown as {
      width: number;
      height: number;
      keptOriginal: boolean;
      scores: { ssimulacra2: number };
    };
    assert.deepEqual([view.width, view.height], [64, 64]);
    assert.equal(view.keptOriginal, false);
    assert.ok(view.scores.ssimulacra2 > 60, "measured against the resized original, not the 128×96 one");
    const dl = await t.request(`/api/download/${job!.id}`, { headers: { Cookie: cookie } });
    const info = inspectJpeg(new Uint8Array(await dl.arrayBuffer()));
    assert.deepEqual([info.width, info.height], [64, 64]);
  } finally {
    await t.close();
  }
});

Deno.test("resize settings are saved like any other, and refused by name when out of range", async () => {
  const t = await createTestApp();
  try {
    const { cookie } = await signUp(t);
    const saved = await t.request("/api/settings", { headers: { Cookie: cookie } });
    const { settings: current } = await saved.json();
    assert.deepEqual([current.maxWidth, current.maxHeight, current.fit], [null, null, "inside"]);
    const put = await t.request(
      "/api/settings",
      jsonInit("PUT", { ...current, maxWidth: 1280, fit: "cover" }, { Cookie: cookie }),
    );
    assert.equal(put.status, 200, await put.clone().text());
    const { settings: after } = await (await t.request("/api/settings", { headers: { Cookie: cookie } })).json();
    assert.deepEqual([after.maxWidth, after.maxHeight, after.fit], [1280, null, "cover"]);
    for (
      const [field, value, message] of [
        ["maxWidth", "0", /^maxWidth must be a whole number from 1 to 16384$/],
        ["maxHeight", "16385", /^maxHeight must be a whole number from 1 to 16384$/],
        ["fit", "stretch", /^fit must be one of inside, cover$/],
      ] as const
    ) {
      const res = await upload(t, cookie, [await fixture("base.jpg")], { [field]: value });
      assert.equal(res.status, 400);
      assert.match((await res.json()).error, message);
    }
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/v1/compress?maxWidth=50 answers the resized image and its size", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const { key } = await createKey(t, cookie);
    const image = await fixture("base.jpg");
    const res = await v1Compress(t, key, image, "maxWidth=50");
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get("Image-Width"), "50");
    assert.equal(res.headers.get("Image-Height"), "38");
    const info = inspectJpeg(new Uint8Array(await res.arrayBuffer()));
    assert.deepEqual([info.width, info.height], [50, 38]);
  } finally {
    await t.close();
  }
});

/** format=auto through the web upload and /api/v1 on the real WASM pool (issue 30, item 4). */
import assert from "node:assert/strict";
import { sniffFormat } from "../../codecs/mod.ts";
import { V1_HEADERS } from "../../contract/api-keys.ts";
import { AUTO_FORMAT_SIZE_ERROR } from "../../contract/settings.ts";
import { createKey, v1Compress, v1Get } from "../setup/api-keys.ts";
import { allSettled, createTestApp, makePremium, signUp, upload, waitForJobs } from "../setup/app-harness.ts";
import { smoothPhoto } from "../codecs/helpers.ts";

const photo = async (name: string) => new File([await smoothPhoto(640, 480)], name, { type: "image/jpeg" });

Deno.test("a free upload on format=auto: the job names the format it chose and the other's bytes; the download is that format", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    const res = await upload(t, cookie, [await photo("fields.jpg")], { format: "auto", formats: "webp,jpeg" });
    assert.equal(res.status, 201, await res.clone().text());
    const [job] = await waitForJobs(t, cookie, allSettled, 60_000);
    assert.equal(job.status, "completed", job.errorMessage);
    assert.equal(job.settings.format, "auto");
    const choice = job.formatChoice;
    assert.ok(choice, "a choice reported");
    assert.equal(job.format, choice.format, "the job's format is the one written");
    assert.deepEqual([choice.format, choice.against].sort(), ["jpeg", "webp"]);
    assert.equal(choice.measured, true, "a small photo: both encoded");
    assert.ok(choice.againstBytes >= job.compressedSize);
    // auto's goal without a target (free users have none): the result scores ≥ 80.
    assert.ok(job.scores.ssimulacra2 >= 80, JSON.stringify(job.scores));

    const dl = await t.request(`/api/download/${job.id}`, { headers: { Cookie: cookie } });
    assert.equal(dl.headers.get("content-type"), `image/${job.format}`);
    const extension = job.format === "jpeg" ? "jpg" : job.format;
    assert.match(dl.headers.get("content-disposition") ?? "", new RegExp(`filename="fields\\.${extension}"`));
    assert.equal(sniffFormat(new Uint8Array(await dl.arrayBuffer())), job.format);
  } finally {
    await t.close();
  }
});

Deno.test("/api/v1 format=auto answers the winner's bytes with a Format-Choice header; a size target is refused", async () => {
  const t = await createTestApp({ pool: 1 });
  try {
    const { cookie } = await signUp(t);
    await makePremium(t, "alice");
    const { key } = await createKey(t, cookie);
    const res = await v1Compress(t, key, await photo("x.jpg"), "format=auto&formats=webp,jpeg&target=auto");
    assert.equal(res.status, 200, await res.clone().text());
    const header = res.headers.get(V1_HEADERS.formatChoice) ?? "";
    const [format, ...params] = header.split("; ");
    assert.equal(res.headers.get("content-type"), `image/${format}`);
    const body = new Uint8Array(await res.arrayBuffer());
    assert.equal(sniffFormat(body), format);
    const against = Object.fromEntries(params.map((p) => p.split("=")));
    assert.equal(against.against, format === "webp" ? "jpeg" : "webp");
    assert.ok(Number(against["against-bytes"]) >= body.length);
    const job = await (await v1Get(t, key, `/api/v1/jobs/${res.headers.get(V1_HEADERS.jobId)}`)).json();
    assert.equal(job.formatChoice.format, format);

    const sized = await v1Compress(t, key, await photo("y.jpg"), "format=auto&target=size:200");
    assert.equal(sized.status, 400);
    assert.equal((await sized.json()).error, `target: ${AUTO_FORMAT_SIZE_ERROR}`);
  } finally {
    await t.close();
  }
});

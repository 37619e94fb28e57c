/**
 * Head starts (ADR 056): an image's work begins as soon as it has arrived whole, while the rest of the upload
 * streams in, and the job it becomes takes that work over instead of starting again.
 */
import assert from "node:assert/strict";
import { createTestApp, makePremium, signUp, type TestApp, waitForJobs } from "../setup/app-harness.ts";
import { HeldCompressor, taggedFile } from "../setup/held-compressor.ts";
import { waitFor } from "../setup/wait-for.ts";
import { CodecError } from "../../codecs/errors.ts";

const encoder = new TextEncoder();
const BOUNDARY = "----head-start-test";

/** A multipart upload the test sends piece by piece: each `field` and `image` is one whole part. */
function streamedUpload(t: TestApp, cookie: string) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  let answered = false;
  const response = Promise.resolve(t.request("/api/compress", {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
    duplex: "half",
  } as RequestInit)).then((r) => {
    answered = true;
    return r;
  });
  // Each part is followed at once by the next delimiter, so the parser knows it has ended when it is written.
  const part = (head: string, content: Uint8Array) => {
    controller.enqueue(encoder.encode(`${opened ? "" : `--${BOUNDARY}`}\r\n${head}\r\n\r\n`));
    controller.enqueue(content);
    controller.enqueue(encoder.encode(`\r\n--${BOUNDARY}`));
    opened = true;
  };
  let opened = false;
  return {
    response,
    get answered() {
      return answered;
    },
    field(name: string, value: string) {
      part(`Content-Disposition: form-data; name="${name}"`, encoder.encode(value));
    },
    async image(file: File) {
      const head = `Content-Disposition: form-data; name="images"; filename="${file.name}"\r\nContent-Type: image/jpeg`;
      part(head, new Uint8Array(await file.arrayBuffer()));
    },
    end() {
      controller.enqueue(encoder.encode("--\r\n"));
      controller.close();
    },
    /** Ends the body inside a part: the multipart is malformed. */
    cut() {
      controller.enqueue(
        encoder.encode(`\r\nContent-Disposition: form-data; name="images"; filename="x.jpg"\r\n\r\nxx`),
      );
      controller.close();
    },
  };
}

async function premiumApp(slots: number) {
  const compressor = new HeldCompressor(slots);
  const t = await createTestApp({ compressor });
  const { cookie } = await signUp(t);
  await makePremium(t, "alice");
  return { t, cookie, compressor };
}

type ListedJob = { id: string; filename: string; status: string; progress: number };
const jobOf = (jobs: ListedJob[], name: string) => jobs.find((j) => j.filename === name)!;

Deno.test("an image's work begins while the rest of the upload arrives, and its job takes it over", async () => {
  const { t, cookie, compressor } = await premiumApp(2);
  const upload = streamedUpload(t, cookie);
  upload.field("quality", "70");
  await upload.image(taggedFile("a"));

  const [first] = await compressor.started(1);
  assert.equal(first!.tag, "a");
  assert.equal(first!.settings.quality, 70, "with the fields sent before the file");
  assert.ok(!upload.answered, "the upload is still arriving");

  await upload.image(taggedFile("b"));
  upload.end();
  const res = await upload.response;
  assert.equal(res.status, 201);
  const { jobs } = await res.json();
  const a = jobOf(jobs, "a.jpg"), b = jobOf(jobs, "b.jpg");
  // The job is its head start's work: running at once, not waiting in line.
  assert.ok(t.compression.scheduler.isRunning(a.id), "job a runs in its head start's slot");

  first!.call.onProgress(40);
  const listed = await (await t.request("/api/jobs", { headers: { Cookie: cookie } })).json();
  assert.equal(jobOf(listed.jobs, "a.jpg").progress, 40, "the head start's progress is the job's");

  first!.finish();
  (await compressor.started(2))[1]!.finish();
  const done = await waitForJobs(t, cookie, (js) => js.length === 2 && js.every((j) => j.status === "completed"));
  assert.equal(jobOf(done as ListedJob[], b.filename).status, "completed");
  assert.deepEqual(compressor.calls.map((c) => c.tag).sort(), ["a", "b"], "each image compressed once");
  assert.equal(t.compression.headStarts?.held, 0);
  await t.close();
});

Deno.test("a field after the images that changes the settings: the head start is dropped, the job runs with the upload's", async () => {
  const { t, cookie, compressor } = await premiumApp(1);
  const upload = streamedUpload(t, cookie);
  await upload.image(taggedFile("a"));
  const [guess] = await compressor.started(1);
  assert.equal(guess!.settings.quality, 80, "begun with the defaults: no field had arrived");

  upload.field("quality", "63");
  upload.end();
  assert.equal((await upload.response).status, 201);
  await waitFor(() => guess!.aborted, { message: "the head start with the wrong settings to be aborted" });
  const [, job] = await compressor.started(2);
  assert.equal(job!.tag, "a");
  assert.equal(job!.settings.quality, 63);
  job!.finish();
  const [done] = await waitForJobs(t, cookie, (js) => js.length === 1 && js[0]!.status === "completed");
  assert.equal((done as { quality?: number }).quality, 63);
  assert.equal(compressor.calls.length, 2);
  await t.close();
});

Deno.test("an upload refused after an image arrived leaves no work behind", async () => {
  const { t, cookie, compressor } = await premiumApp(1);
  const upload = streamedUpload(t, cookie);
  await upload.image(taggedFile("a"));
  const [started] = await compressor.started(1);
  upload.cut();
  const res = await upload.response;
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /multipart body is malformed/);
  await waitFor(() => started!.aborted, { message: "the refused upload's head start to be aborted" });
  const listed = await (await t.request("/api/jobs", { headers: { Cookie: cookie } })).json();
  assert.equal(listed.jobs.length, 0);
  assert.equal(t.compression.scheduler.backgroundCount, 0);
  await t.close();
});

Deno.test("a batch cancelled while its head-started job runs: the work is aborted, the quota given back", async () => {
  const { t, cookie, compressor } = await premiumApp(1);
  const upload = streamedUpload(t, cookie);
  await upload.image(taggedFile("a"));
  const [started] = await compressor.started(1);
  upload.end();
  const { batch } = await (await upload.response).json();
  const res = await t.request(`/api/batches/${batch.id}`, { method: "DELETE", headers: { Cookie: cookie } });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).batch.status, "cancelled");
  await waitFor(() => started!.aborted, { message: "the cancelled job's head start to be aborted" });
  const [job] = await waitForJobs(t, cookie, (js) => js.length === 1 && js[0]!.status !== "processing");
  assert.equal(job!.status, "error");
  const usage = await (await t.request("/api/usage", { headers: { Cookie: cookie } })).json();
  assert.equal(usage.used, 0, "the cancelled image's unit given back");
  assert.equal(compressor.calls.length, 1, "nothing ran again");
  await t.close();
});

Deno.test("head starts take only idle slots, and never more at once than the batch's maxConcurrent", async () => {
  const { t, cookie, compressor } = await premiumApp(2);
  const upload = streamedUpload(t, cookie);
  upload.field("maxConcurrent", "1");
  await upload.image(taggedFile("a"));
  await upload.image(taggedFile("b"));
  await compressor.started(1);
  // b has arrived whole too, and a slot is idle: still one at a time for this batch.
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(compressor.calls.length, 1);
  upload.end();
  assert.equal((await upload.response).status, 201);
  compressor.calls[0]!.finish();
  const [, second] = await compressor.started(2);
  assert.equal(second!.tag, "b");
  second!.finish();
  await waitForJobs(t, cookie, (js) => js.length === 2 && js.every((j) => j.status === "completed"));
  assert.equal(compressor.calls.length, 2);
  await t.close();
});

Deno.test("a head start that fails fails its own job with the codec's reason, once; the other images go on", async () => {
  const { t, cookie, compressor } = await premiumApp(2);
  const upload = streamedUpload(t, cookie);
  await upload.image(taggedFile("broken"));
  const [broken] = await compressor.started(1);
  broken!.fail(new CodecError("corrupt_image", "Cannot decode the image: its scan data is corrupt"));
  await upload.image(taggedFile("fine"));
  upload.end();
  const res = await upload.response;
  assert.equal(res.status, 201);
  const fine = (await compressor.started(2))[1]!;
  assert.equal(fine.tag, "fine");
  fine.finish();
  const jobs = await waitForJobs(
    t,
    cookie,
    (js) => js.length === 2 && js.every((j) => j.status !== "processing" && j.status !== "pending"),
  );
  const failed = jobOf(jobs as ListedJob[], "broken.jpg") as ListedJob & { errorMessage: string };
  assert.equal(failed.status, "error");
  assert.equal(failed.errorMessage, "Cannot decode the image: its scan data is corrupt");
  assert.equal(jobOf(jobs as ListedJob[], "fine.jpg").status, "completed");
  assert.equal(compressor.calls.length, 2, "the failed image was not compressed again");
  await t.close();
});

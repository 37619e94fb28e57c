/**
 * Issue 29 (M3, L4), the whole command in process against fake servers: a 200 that is not the result asked for (a
 * web page, JSON, cut short, too long, huge) or no answer at all fails its file, and with --in-place leaves the
 * original byte for byte and no temporary file beside it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { V1_HEADERS } from "../../contract/api-keys.ts";
import { MB } from "../../contract/plans.ts";
import { MAX_RESULT_BYTES } from "../../cli/verify-result.ts";
import { type Answer, fakeJpeg, resultHeaders, stalledResult, startFakeApi, untilAborted } from "./fake-api.ts";
import { filesUnder, run, withDir } from "./in-process.ts";

const PHOTO = "photo.jpg";

/**
 * Runs `compress dir/in` (holding photo.jpg) with `flags` and the API's URL against `answer`; then checks the
 * original is intact and alone in its folder.
 */
async function againstAnswer(
  answer: Answer,
  flags: (dir: string) => string[],
  check: (r: { code: number; stdout: string; stderr: string; requests: number; dir: string; ms: number }) => unknown,
): Promise<void> {
  const api = startFakeApi(answer);
  try {
    await withDir(async (dir) => {
      const original = fakeJpeg(4000);
      await Deno.mkdir(join(dir, "in"));
      await Deno.writeFile(join(dir, "in", PHOTO), original);
      const started = performance.now();
      const r = await run(["compress", join(dir, "in"), ...flags(dir), "--url", api.url]);
      await check({ ...r, requests: api.requests.length, dir, ms: performance.now() - started });
      assert.deepEqual(await filesUnder(join(dir, "in")), [PHOTO], "no temporary file left beside the original");
      assert.deepEqual(await Deno.readFile(join(dir, "in", PHOTO)), original, "the original byte for byte");
    });
  } finally {
    await api.close();
  }
}

/** The failure line of photo.jpg with --in-place: `message`, then that the original was kept. */
const inPlaceFailure = (message: string) =>
  new RegExp(
    `/${PHOTO.replace(".", "\\.")} {2}failed: ${message}; '${PHOTO.replace(".", "\\.")}' was left untouched\n`,
  );

const NOT_RESULTS: { name: string; answer: () => Response; message: string }[] = [
  {
    name: "a web page (a captive portal)",
    answer: () =>
      new Response("<!doctype html><title>Sign in to the Wi-Fi</title>", {
        headers: { "Content-Type": "text/html; charset=utf-8" },
      }),
    message: String.raw`The server's answer is not an image \(text/html\)`,
  },
  {
    name: "JSON",
    answer: () => Response.json({ status: "ok" }),
    message: String.raw`The server's answer is not an image \(application/json\)`,
  },
  {
    name: "no Content-Type",
    answer: () => new Response(fakeJpeg(100), { headers: { "Content-Type": "" } }),
    message: String.raw`The server's answer is not an image \(no Content-Type\)`,
  },
  {
    name: "a web page labelled image/jpeg with every V1 header",
    answer: () => {
      const page = "<!doctype html><p>hello</p>";
      return new Response(page, { headers: resultHeaders(page.length) });
    },
    message: String
      .raw`The server's answer is labelled image/jpeg but is not a JPEG file \(it starts 3c 21 64 6f 63 74 79 70\)`,
  },
  {
    name: "another image type than asked for",
    answer: () => new Response("RIFF\0\0\0\0WEBPVP8 ", { headers: resultHeaders(16, "image/webp") }),
    message: String.raw`The server's answer is image/webp, not the JPEG asked for`,
  },
  {
    name: "a JPEG without a Job-Id",
    answer: () => {
      const headers = resultHeaders(100);
      delete headers[V1_HEADERS.jobId];
      return new Response(fakeJpeg(100), { headers });
    },
    message: String.raw`The server's answer has no Job-Id header: it is not the SqueezeJPEG API's`,
  },
  {
    name: "a JPEG without a Compressed-Size",
    answer: () => {
      const headers = resultHeaders(100);
      delete headers[V1_HEADERS.compressedSize];
      return new Response(fakeJpeg(100), { headers });
    },
    message: String.raw`The server's answer has no Compressed-Size header`,
  },
  {
    name: "a body shorter than its Compressed-Size (it ends cleanly)",
    answer: () => new Response(fakeJpeg(1000).subarray(0, 500), { headers: resultHeaders(1000) }),
    message: String.raw`The server's answer broke off after 500 of the 1000 bytes its Compressed-Size announced`,
  },
  {
    name: "a body longer than its Compressed-Size",
    answer: () => new Response(fakeJpeg(2000), { headers: resultHeaders(1000) }),
    message: String.raw`The server's answer is longer than the 1000 bytes its Compressed-Size announced`,
  },
];

for (const { name, answer, message } of NOT_RESULTS) {
  Deno.test(`verified results: a 200 with ${name} fails the file, exit 1, --in-place keeps the original`, async () => {
    await againstAnswer(answer, () => ["--in-place"], (r) => {
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, inPlaceFailure(message));
      assert.match(r.stdout, /^0 files {2}0 B → 0 B {2}1 failed$/m);
      assert.equal(r.stderr, "1 of 1 file failed\n");
    });
  });
}

Deno.test("verified results: with --out, an answer that is not a result writes nothing there", async () => {
  // Refused on its headers (nothing made), and refused once its body ended short (its folder made, then emptied).
  for (const { answer, message } of [NOT_RESULTS[0]!, NOT_RESULTS.at(-2)!]) {
    await againstAnswer(answer, (dir) => ["--out", join(dir, "out")], async (r) => {
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, new RegExp(`failed: ${message}; nothing was written\n`));
      const written = await filesUnder(join(r.dir, "out")).catch(() => []);
      assert.deepEqual(written, [], "no result, no temporary file");
    });
  }
});

Deno.test("verified results: a huge body is refused without being read: by its Compressed-Size, or past it", async () => {
  const HUGE = 300 * MB;
  let produced = 0;
  const hugeBody = () =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (produced >= HUGE) return controller.close();
        const chunk = new Uint8Array(64 * 1024);
        if (produced === 0) chunk.set(fakeJpeg(8).subarray(0, 4));
        produced += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
  const cases = [
    {
      size: HUGE,
      message:
        `The server's answer announces ${HUGE} bytes, more than any result can be \\(${MAX_RESULT_BYTES} bytes\\); it was not read`,
    },
    { size: 1000, message: "The server's answer is longer than the 1000 bytes its Compressed-Size announced" },
  ];
  for (const { size, message } of cases) {
    produced = 0;
    await againstAnswer(() => new Response(hugeBody(), { headers: resultHeaders(size) }), () => ["--in-place"], (r) => {
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, inPlaceFailure(message));
      // What the server managed to hand over before the CLI let go: the socket's buffers, not 300 MB.
      assert.ok(produced < 16 * MB, `${(produced / MB).toFixed(1)} MB of the body produced`);
    });
  }
});

Deno.test("verified results: a server that accepts and never answers, or stops mid-body: --timeout, not retried", async () => {
  const never: Answer = async (req) => {
    await untilAborted(req.closing);
    return new Response(null, { status: 204 });
  };
  const midBody: Answer = (req) => stalledResult(req, 1000, 100);
  for (const answer of [never, midBody]) {
    await againstAnswer(answer, () => ["--in-place", "--timeout", "1"], (r) => {
      assert.equal(r.code, 1, r.stdout);
      assert.match(
        r.stdout,
        inPlaceFailure(String.raw`The server sent nothing for 1 s \(--timeout 1; raise it to wait longer\)`),
      );
      assert.equal(r.requests, 1, "a timed out file is not sent again");
      assert.ok(r.ms >= 950 && r.ms < 5000, `gave up after ${Math.round(r.ms)} ms`);
    });
  }
});

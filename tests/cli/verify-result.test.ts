/** The checks a 200 passes before the CLI writes it: each type's first bytes, the headers, the body's length. */
import assert from "node:assert/strict";
import { FORMATS, OUTPUT_FORMATS } from "../../contract/formats.ts";
import { V1_HEADERS } from "../../contract/api-keys.ts";
import { MB } from "../../contract/plans.ts";
import {
  expectedResult,
  MAX_RESULT_BYTES,
  RESULT_TYPES,
  SIGNATURES,
  UnverifiedAnswerError,
  verifiedBody,
} from "../../cli/verify-result.ts";
import { fakeJpeg, resultHeaders } from "./fake-api.ts";

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p));
/** An ISO-BMFF `ftyp` box: its size, the major brand, a minor version, the compatible brands. */
const ftyp = (major: string, ...compatible: string[]) =>
  bytes([0, 0, 0, 16 + 4 * compatible.length], "ftyp", major, [0, 0, 0, 0], ...compatible);

/** Each media type's own samples; every other type must refuse them. */
const SAMPLES: Record<string, Uint8Array[]> = {
  "image/jpeg": [bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], "JFIF"), bytes([0xff, 0xd8, 0xff, 0xdb])],
  "image/webp": [bytes("RIFF", [0x24, 0, 0, 0], "WEBPVP8 ")],
  "image/avif": [ftyp("avif", "mif1", "miaf"), ftyp("mif1", "miaf", "avif"), ftyp("avis", "msf1")],
  "image/jxl": [
    bytes([0xff, 0x0a, 0xfa]),
    bytes([0, 0, 0, 0x0c], "JXL ", [0x0d, 0x0a, 0x87, 0x0a], [0, 0, 0, 0x14], "ftyp"),
  ],
};
const NOT_IMAGES = [
  bytes("<!doctype html>"),
  bytes('{"ok":true}'),
  bytes([0xff, 0xd8, 0x42]),
  bytes("RIFF", [0, 0, 0, 0], "WAVE"),
  ftyp("heic", "mif1", "heic"),
  bytes([0xff]),
  new Uint8Array(),
];

Deno.test("verify result: each type knows its own first bytes and no other's", () => {
  for (const [type, starts] of Object.entries(SIGNATURES)) {
    for (const [other, samples] of Object.entries(SAMPLES)) {
      for (const sample of samples) {
        assert.equal(starts(sample), type === other, `${type} on a ${other} sample ${sample}`);
      }
    }
    for (const sample of NOT_IMAGES) assert.equal(starts(sample), false, `${type} on ${sample}`);
  }
});

Deno.test("verify result: every output format of the manifest has its signature and its samples", () => {
  for (const format of OUTPUT_FORMATS) {
    const type = RESULT_TYPES[format];
    assert.equal(type.mediaType, FORMATS[format].mimeType);
    assert.ok(SIGNATURES[type.mediaType], `${format} has a signature`);
    assert.ok(SAMPLES[type.mediaType]!.every((s) => type.starts(s)), `${format} accepts its samples`);
  }
});

const headers = (extra: Record<string, string | null>, size = 100) => {
  const h = new Headers(resultHeaders(size));
  for (const [name, value] of Object.entries(extra)) value === null ? h.delete(name) : h.set(name, value);
  return h;
};
const refused = (h: Headers, format: "jpeg" | "webp" | "auto" | undefined, pattern: RegExp) =>
  assert.throws(() => expectedResult(h, { format }), (err: Error) => {
    assert.ok(err instanceof UnverifiedAnswerError, String(err));
    assert.match(err.message, pattern);
    return true;
  });

Deno.test("verify result: the headers: the type asked for (or the kept original JPEG), a Job-Id, a Compressed-Size", () => {
  const ok = expectedResult(headers({}), {});
  assert.equal(ok.type, RESULT_TYPES.jpeg, "no --format: the server's default, JPEG");
  assert.equal(ok.size, 100);
  assert.equal(typeof ok.jobId, "string");
  assert.equal(
    expectedResult(headers({ "Content-Type": "IMAGE/JPEG; charset=binary" }), { format: "jpeg" }).type.name,
    "JPEG",
  );
  assert.equal(expectedResult(headers({ "Content-Type": "image/webp" }), { format: "webp" }).type, RESULT_TYPES.webp);
  assert.equal(
    expectedResult(headers({}), { format: "webp" }).type,
    RESULT_TYPES.jpeg,
    "an original kept: a JPEG for WebP",
  );

  refused(headers({ "Content-Type": "text/html" }), "jpeg", /^The server's answer is not an image \(text\/html\)$/);
  refused(headers({ "Content-Type": null }), "jpeg", /is not an image \(no Content-Type\)/);
  refused(
    headers({ "Content-Type": "image/webp" }),
    "jpeg",
    /^The server's answer is image\/webp, not the JPEG asked for$/,
  );
  refused(headers({ "Content-Type": "image/png" }), "webp", /is image\/png, not the WebP asked for/);
  refused(headers({ [V1_HEADERS.jobId]: null }), "jpeg", /has no Job-Id header/);
  refused(headers({ [V1_HEADERS.jobId]: " " }), "jpeg", /has no Job-Id header/);
  refused(headers({ [V1_HEADERS.compressedSize]: null }), "jpeg", /has no Compressed-Size header/);
  refused(headers({ [V1_HEADERS.compressedSize]: "12kB" }), "jpeg", /an unreadable Compressed-Size \('12kB'\)/);
  refused(headers({ [V1_HEADERS.compressedSize]: "0" }), "jpeg", /is an empty result/);
  refused(headers({}, MAX_RESULT_BYTES + 1), "jpeg", /more than any result can be \(26214400 bytes\); it was not read/);
  assert.equal(expectedResult(headers({}, MAX_RESULT_BYTES), { format: "jpeg" }).size, MAX_RESULT_BYTES);

  // format=auto: any allowed format (named by it), or the original kept; nothing else.
  const avif = expectedResult(headers({ "Content-Type": "image/avif" }), { format: "auto", formats: ["avif", "jpeg"] });
  assert.equal(avif.format, "avif");
  assert.equal(expectedResult(headers({}), { format: "auto", formats: ["avif", "webp"] }).format, "jpeg", "kept");
  assert.throws(
    () => expectedResult(headers({ "Content-Type": "image/webp" }), { format: "auto", formats: ["avif", "jpeg"] }),
    /is image\/webp, not the AVIF or JPEG asked for/,
  );
  assert.equal(MAX_RESULT_BYTES, 25 * MB, "Premium's upload limit: no result is larger than its upload");
});

/** A body of `chunks`, counting how many were read. */
function source(chunks: Uint8Array[]) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks.length) return controller.close();
      controller.enqueue(chunks[seen.pulled++]!);
    },
    cancel() {
      seen.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, seen };
}

Deno.test("verify result: the body streams through when it is the announced length and type", async () => {
  const jpeg = fakeJpeg(1000);
  const { stream } = source([jpeg.subarray(0, 3), jpeg.subarray(3, 700), jpeg.subarray(700)]);
  const out = await new Response(
    verifiedBody(stream, { type: RESULT_TYPES.jpeg, format: "jpeg", size: 1000, jobId: "j" }),
  ).bytes();
  assert.deepEqual(out, jpeg);
});

Deno.test("verify result: a body too long stops being read at once; one too short fails at its end, one not its type at its first bytes", async () => {
  const expected = { type: RESULT_TYPES.jpeg, format: "jpeg" as const, size: 100, jobId: "j" };
  const long = source(Array.from({ length: 1000 }, () => fakeJpeg(64)));
  await assert.rejects(
    new Response(verifiedBody(long.stream, expected)).bytes(),
    /^UnverifiedAnswerError: The server's answer is longer than the 100 bytes its Compressed-Size announced$/,
  );
  assert.equal(long.seen.pulled, 2, "read up to the first byte past the size");
  assert.ok(long.seen.cancelled, "and the rest let go");

  const short = source([fakeJpeg(60)]);
  await assert.rejects(
    new Response(verifiedBody(short.stream, expected)).bytes(),
    /broke off after 60 of the 100 bytes its Compressed-Size announced$/,
  );

  const page = source([bytes("<!doctype html><title>Portal</title>"), new Uint8Array(64)]);
  await assert.rejects(
    new Response(verifiedBody(page.stream, expected)).bytes(),
    /is labelled image\/jpeg but is not a JPEG file \(it starts 3c 21 64 6f 63 74 79 70\)$/,
  );
});

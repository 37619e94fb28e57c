/**
 * What a 200 must be before the CLI writes it (issue 29, M3): an image of the type asked for (its Content-Type
 * and its first bytes), exactly `Compressed-Size` bytes long, with a `Job-Id`. A wrong --url (a proxy, a captive
 * portal, a typo) can answer 200 with a web page; with --in-place that page would replace the only copy of a photo.
 */
import { V1_HEADERS } from "../contract/api-keys.ts";
import { PLANS } from "../contract/plans.ts";
import { type FormatChoice, FORMATS, OUTPUT_FORMATS, type OutputFormat } from "../contract/formats.ts";
import { answerFormats, askedFormats } from "./walk.ts";
import { FileFailedError } from "./client.ts";

export interface ResultType {
  mediaType: string;
  /** As people name it in a message. */
  name: string;
  /** True when `head` (the first bytes, up to HEAD_BYTES) starts like a file of this type. */
  starts(head: Uint8Array): boolean;
}

/** How many first bytes a type's test may look at. */
export const HEAD_BYTES = 64;

const at = (b: Uint8Array, offset: number, bytes: readonly number[]) => bytes.every((x, i) => b[offset + i] === x);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** An ISO-BMFF `ftyp` box first, with `avif` or `avis` as its major brand or among the compatible ones. */
function startsAvif(b: Uint8Array): boolean {
  if (b.length < 16 || !at(b, 4, ascii("ftyp"))) return false;
  const boxEnd = Math.min(new DataView(b.buffer, b.byteOffset, 4).getUint32(0), b.length);
  const brands = [8, ...Array.from({ length: Math.max(0, (boxEnd - 16) >> 2) }, (_, i) => 16 + 4 * i)];
  return brands.some((offset) => at(b, offset, ascii("avif")) || at(b, offset, ascii("avis")));
}

/**
 * First bytes by media type: every output format's (contract/formats.ts), and JPEG XL's ahead of its format.
 * A format without an entry here verifies nothing (a test says so).
 */
export const SIGNATURES: Readonly<Record<string, (head: Uint8Array) => boolean>> = {
  "image/jpeg": (b) => at(b, 0, [0xff, 0xd8, 0xff]),
  "image/webp": (b) => at(b, 0, ascii("RIFF")) && at(b, 8, ascii("WEBP")),
  "image/avif": startsAvif,
  // A bare codestream, or the ISO-BMFF container's signature box.
  // A web set's ZIP: a local file header first.
  "application/zip": (b) => at(b, 0, [0x50, 0x4b, 0x03, 0x04]),
  "image/jxl": (b) => at(b, 0, [0xff, 0x0a]) || at(b, 0, [0, 0, 0, 0x0c, ...ascii("JXL "), 0x0d, 0x0a, 0x87, 0x0a]),
};

/** Every format the server may answer, by the name `--format` takes: the manifest's facts and its signature. */
export const RESULT_TYPES = Object.fromEntries(OUTPUT_FORMATS.map((format) => {
  const { mimeType, label } = FORMATS[format];
  return [format, { mediaType: mimeType, name: label, starts: SIGNATURES[mimeType] ?? (() => false) }];
})) as Record<OutputFormat, ResultType>;

/** A web set's answer (`--widths`): its files, picture.html and manifest.json in one ZIP. */
export const SET_RESULT: ResultType = {
  mediaType: "application/zip",
  name: "web set (ZIP)",
  starts: SIGNATURES["application/zip"]!,
};
/** A set holds several images per photo, each of which may be as large as a result: a bound of its own. */
export const MAX_SET_RESULT_BYTES = 256 * 1024 * 1024;

/**
 * The most a result can be: the server keeps the original when it cannot make it smaller, so a result is never
 * larger than its upload, and no plan takes a larger upload. A `Compressed-Size` above it is refused unread.
 */
export const MAX_RESULT_BYTES = Math.max(...Object.values(PLANS).map((plan) => plan.maxFileBytes));

/** The answer is not a result this run asked for: the file fails and nothing is written. */
export class UnverifiedAnswerError extends FileFailedError {
  constructor(message: string) {
    super(`The server's answer ${message}`);
    this.name = "UnverifiedAnswerError";
  }
}

/** What the headers of a verified answer promise. */
export interface ExpectedResult {
  type: ResultType;
  /** The image format it is (null for a web set's ZIP): names the file. */
  format: OutputFormat | null;
  /** Its exact length in bytes (`Compressed-Size`). */
  size: number;
  jobId: string;
}

/**
 * Checks a 200's headers for a result of the format asked (the server's default when not given; on
 * format=auto, any allowed one); throws UnverifiedAnswerError otherwise. The result may also be a JPEG
 * whatever was asked: the original, kept when no smaller result was found ("already optimised").
 */
export function expectedResult(
  headers: Headers,
  asked: { format?: FormatChoice; formats?: OutputFormat[]; widths?: number[]; restore?: boolean },
): ExpectedResult {
  const mediaType = (headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  const set = asked.widths !== undefined;
  const formats = set ? [] : answerFormats(asked);
  const format = formats.find((f) => RESULT_TYPES[f].mediaType === mediaType) ?? null;
  const type = set ? (mediaType === SET_RESULT.mediaType ? SET_RESULT : null) : format && RESULT_TYPES[format];
  if (!type) {
    if (!mediaType.startsWith("image/") && mediaType !== SET_RESULT.mediaType) {
      throw new UnverifiedAnswerError(`is not an image (${mediaType || "no Content-Type"})`);
    }
    const wanted = set ? SET_RESULT.name : askedFormats(asked).map((f) => RESULT_TYPES[f].name).join(" or ");
    throw new UnverifiedAnswerError(`is ${mediaType}, not the ${wanted} asked for`);
  }
  // A restore is no job: its answer is the JPEG alone.
  const jobId = asked.restore ? "" : headers.get(V1_HEADERS.jobId)?.trim();
  if (jobId === undefined || (!asked.restore && !jobId)) {
    throw new UnverifiedAnswerError(`has no ${V1_HEADERS.jobId} header: it is not the SqueezeJPEG API's`);
  }
  const sizeText = headers.get(V1_HEADERS.compressedSize)?.trim() ?? "";
  if (!/^\d+$/.test(sizeText)) {
    throw new UnverifiedAnswerError(
      sizeText
        ? `has an unreadable ${V1_HEADERS.compressedSize} ('${sizeText}')`
        : `has no ${V1_HEADERS.compressedSize} header`,
    );
  }
  const size = Number(sizeText);
  if (size === 0) throw new UnverifiedAnswerError("is an empty result");
  const max = set ? MAX_SET_RESULT_BYTES : MAX_RESULT_BYTES;
  if (size > max) {
    throw new UnverifiedAnswerError(
      `announces ${size} bytes, more than any result can be (${max} bytes); it was not read`,
    );
  }
  return { type, format, size, jobId };
}

/**
 * `body` as it streams, erroring with an UnverifiedAnswerError as soon as it is longer than `expected.size`
 * (the rest is never read), when it ends shorter, or when its first bytes are not its type's. The caller writes
 * to a temporary file and keeps it only if this stream ends cleanly.
 */
export function verifiedBody(body: ReadableStream<Uint8Array>, expected: ExpectedResult): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const head = new Uint8Array(Math.min(HEAD_BYTES, expected.size));
  let bytes = 0;
  const fail = async (error: Error): Promise<never> => {
    await reader.cancel(error).catch(() => {});
    throw error;
  };
  const notOfType = () => {
    const first = [...head.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    const { mediaType, name } = expected.type;
    return new UnverifiedAnswerError(`is labelled ${mediaType} but is not a ${name} file (it starts ${first})`);
  };
  const brokeOff = (detail?: string) =>
    new UnverifiedAnswerError(
      `broke off after ${bytes} of the ${expected.size} bytes its ${V1_HEADERS.compressedSize} announced` +
        (detail ? ` (${detail})` : ""),
    );
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (err instanceof FileFailedError) throw err; // a timeout says so itself
        throw brokeOff(err instanceof Error ? err.message : String(err));
      }
      if (chunk.done) {
        if (bytes < expected.size) throw brokeOff();
        controller.close();
        return;
      }
      const before = bytes;
      bytes += chunk.value.byteLength;
      if (bytes > expected.size) {
        await fail(
          new UnverifiedAnswerError(
            `is longer than the ${expected.size} bytes its ${V1_HEADERS.compressedSize} announced`,
          ),
        );
      }
      if (before < head.length) {
        head.set(chunk.value.subarray(0, head.length - before), before);
        if (bytes >= head.length && !expected.type.starts(head)) await fail(notOfType());
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

import {
  getMultipartBoundary,
  MaxFileSizeExceededError,
  MaxHeaderSizeExceededError,
  MultipartParseError,
  parseMultipartStream,
} from "@mjackson/multipart-parser";
import { ApiError, isRefusal } from "../http-error.ts";
import type { MultipartBody } from "../services/compression/upload-form.ts";

export interface MultipartLimits {
  /** Per part: a file past this is refused (413) as soon as it passes it. */
  maxFileBytes: number;
  /** Text fields beyond this many are refused (400) as they arrive. */
  maxFields: number;
  maxFieldBytes: number;
  /** Called with the running count as each file arrives; throws to refuse the upload there. */
  onFile(count: number): void;
  /** The refusal for a file past `maxFileBytes` (its name is not known once the parser stops). */
  fileTooLarge(): Error;
  /** A file has arrived whole, with the fields read before it (its work may start: ADR 056). Must not throw. */
  onFileRead?(field: string, file: File, fieldsSoFar: MultipartBody): void;
}

/**
 * Whether the request declares a multipart body. Media types are case-insensitive (RFC 9110 §8.3.1):
 * `MULTIPART/FORM-DATA` is one too, which the parser's own `isMultipartRequest` (and so its
 * `parseMultipartRequest`) would miss.
 */
export function isMultipart(request: Request): boolean {
  return /^multipart\//i.test(request.headers.get("Content-Type") ?? "");
}

/** The parts of a multipart request; the parser's own errors for a missing boundary or body. */
function partsOf(request: Request, maxFileSize: number) {
  const boundary = getMultipartBoundary(request.headers.get("Content-Type") ?? "");
  if (!boundary) throw new MultipartParseError("Invalid Content-Type header: missing boundary");
  if (!request.body) throw new MultipartParseError("Request body is empty");
  return parseMultipartStream(request.body, { boundary, maxFileSize });
}

/** The settings fields of POST /api/compress number a dozen; room for a few more. */
export const UPLOAD_FIELD_LIMITS = { maxFields: 40, maxFieldBytes: 4096 } as const;

/**
 * Reads a multipart body part by part as it streams in: each file goes
 * straight into a Blob, so an upload is held once in memory, not as a
 * buffered body plus its parsed copy (Request.formData()). Every bound is
 * checked as parts arrive, so a refused body is never read to its end.
 */
export async function readMultipart(request: Request, limits: MultipartLimits): Promise<MultipartBody> {
  if (!isMultipart(request)) {
    throw new ApiError(400, "The request must be multipart/form-data with the images in 'images'");
  }
  const body: MultipartBody = {};
  const add = (name: string, value: string | File) => {
    const existing = body[name];
    if (existing === undefined) body[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else body[name] = [existing, value];
  };
  let files = 0;
  let fields = 0;
  try {
    for await (const part of partsOf(request, limits.maxFileBytes)) {
      if (part.isFile) {
        limits.onFile(++files);
        const file = new File(part.content as Uint8Array<ArrayBuffer>[], part.filename ?? "image.jpg", {
          type: part.mediaType ?? "application/octet-stream",
        });
        add(part.name ?? "", file);
        limits.onFileRead?.(part.name ?? "", file, body);
        continue;
      }
      if (++fields > limits.maxFields) {
        throw new ApiError(400, `The upload has more than ${limits.maxFields} form fields`);
      }
      const size = part.content.reduce((sum, chunk) => sum + chunk.byteLength, 0);
      if (size > limits.maxFieldBytes) {
        throw new ApiError(400, `The form field '${part.name ?? ""}' is longer than ${limits.maxFieldBytes} bytes`);
      }
      if (part.name) add(part.name, part.text);
    }
  } catch (err) {
    if (isRefusal(err)) throw err;
    if (err instanceof MaxFileSizeExceededError) {
      throw limits.fileTooLarge();
    }
    if (err instanceof MaxHeaderSizeExceededError) throw new ApiError(400, "A part's headers are too long");
    if (err instanceof MultipartParseError) throw new ApiError(400, `The multipart body is malformed: ${err.message}`);
    throw new ApiError(400, "The multipart body could not be read");
  }
  return body;
}

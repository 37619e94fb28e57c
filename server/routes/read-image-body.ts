/**
 * The one image of a `POST /api/v1/compress` body: the raw bytes (any content type but
 * multipart; the admission judges the bytes, not the declared type, as for uploads), or a
 * multipart body with exactly one file and nothing else. Read as it streams, within the plan's
 * per-file limit (413 as soon as it is passed) and the upload's store reservation (503), like an
 * upload's files (upload-intake.ts).
 */
import type { PlanLimits } from "../../contract/plans.ts";
import { ApiError } from "../http-error.ts";
import { meterRequest } from "../middleware/body-guard.ts";
import type { UploadIntake } from "../services/compression/upload-intake.ts";
import { isMultipart, readMultipart, UPLOAD_FIELD_LIMITS } from "./read-multipart.ts";

/** Room for a multipart body's boundaries and part headers around its one file. */
export const MULTIPART_SLACK = 64 * 1024;

/** The most bytes a `POST /api/v1/compress` body may carry on this plan: one file and its multipart framing. */
export const imageBodyBytesAllowed = (plan: PlanLimits): number => plan.maxFileBytes + MULTIPART_SLACK;

/** The name a raw body's image gets (the download's base name) when the request names none. */
const RAW_NAME = "image.jpg";

/**
 * The file name a raw body declares in `Content-Disposition` (`filename*=UTF-8''…` or `filename="…"`),
 * as the CLI sends it; the admission keeps only its safe form (contract/file-names.ts).
 */
export function declaredFileName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      return null;
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1] ?? null;
}

export async function readImageBody(request: Request, intake: UploadIntake): Promise<File> {
  const multipart = isMultipart(request);
  const declared = request.headers.get("Content-Length");
  if (declared !== null) {
    // Already checked as a number by the body guard; past the plan's limit it is refused unread.
    if (Number(declared) > (multipart ? imageBodyBytesAllowed(intake.plan) : intake.plan.maxFileBytes)) {
      throw intake.fileTooLarge();
    }
    intake.declare(Number(declared));
  }
  const file = multipart ? await readOnePart(request, intake) : await readRaw(request, intake);
  if (file.size === 0) throw new ApiError(400, "The request body is empty: send the JPEG's bytes");
  return file;
}

async function readRaw(request: Request, intake: UploadIntake): Promise<File> {
  const limit = intake.plan.maxFileBytes;
  let size = 0;
  const metered = meterRequest(request, {
    onChunk: (bytes) => {
      size += bytes;
      if (size > limit) throw intake.fileTooLarge();
      intake.take(bytes);
    },
  });
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  if (metered.body) {
    for await (const chunk of metered.body) chunks.push(chunk as Uint8Array<ArrayBuffer>);
  }
  intake.countFile(1);
  const name = declaredFileName(request.headers.get("Content-Disposition")) || RAW_NAME;
  return new File(chunks, name, { type: "image/jpeg" });
}

async function readOnePart(request: Request, intake: UploadIntake): Promise<File> {
  const body = await readMultipart(meterRequest(request, { onChunk: (bytes) => intake.take(bytes) }), {
    ...UPLOAD_FIELD_LIMITS,
    maxFileBytes: intake.plan.maxFileBytes,
    onFile: (count) => {
      if (count > 1) throw new ApiError(400, "Send one image per request: the multipart body has more than one file");
      intake.countFile(count);
    },
    fileTooLarge: () => intake.fileTooLarge(),
  });
  const fields = Object.entries(body).filter(([, v]) => !(v instanceof File));
  if (fields.length > 0) {
    throw new ApiError(
      400,
      `The multipart body carries only the image; send settings in the query string (found ${
        fields.map(([name]) => `'${name}'`).join(", ")
      })`,
    );
  }
  const file = Object.values(body).find((v): v is File => v instanceof File);
  if (!file) throw new ApiError(400, "The multipart body has no file: attach one JPEG");
  return file;
}

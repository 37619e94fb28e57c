import {
  isMultipartRequest,
  MaxFileSizeExceededError,
  MultipartParseError,
  parseMultipartRequest,
} from "@mjackson/multipart-parser";
import { ApiError } from "../http-error.ts";
import type { MultipartBody } from "../services/compression/upload-form.ts";

/**
 * Reads a multipart body part by part as it streams in: each file goes
 * straight into a Blob, so an upload is held once in memory, not as a
 * buffered body plus its parsed copy (Request.formData()).
 */
export async function readMultipart(request: Request, maxPartBytes: number): Promise<MultipartBody> {
  if (!isMultipartRequest(request)) {
    throw new ApiError(400, "The request must be multipart/form-data with the images in 'images'");
  }
  const body: MultipartBody = {};
  const add = (name: string, value: string | File) => {
    const existing = body[name];
    if (existing === undefined) body[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else body[name] = [existing, value];
  };
  try {
    for await (const part of parseMultipartRequest(request, { maxFileSize: maxPartBytes })) {
      if (!part.name) continue;
      if (part.isFile) {
        add(
          part.name,
          new File(part.content as Uint8Array<ArrayBuffer>[], part.filename ?? "image.jpg", {
            type: part.mediaType ?? "application/octet-stream",
          }),
        );
      } else {
        add(part.name, part.text);
      }
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof MaxFileSizeExceededError) {
      throw new ApiError(
        413,
        `A file is larger than ${Math.floor(maxPartBytes / 1024 / 1024)} MB, the most any plan accepts`,
      );
    }
    if (err instanceof MultipartParseError) throw new ApiError(400, `The multipart body is malformed: ${err.message}`);
    throw new ApiError(400, "The multipart body could not be read");
  }
  return body;
}

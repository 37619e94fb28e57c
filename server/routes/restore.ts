/**
 * `POST /api/restore` (signed in) and `POST /api/v1/restore` (an API key): the body is a `.jxl` file made from a
 * JPEG; the answer is that JPEG, byte for byte (issue 32, item 4). Not a compression: no quota, no job.
 */
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../app-env.ts";
import { HTTP_STATUS_BY_CODE, isCodecError } from "../../codecs/mod.ts";
import { V1_HEADERS } from "../../contract/api-keys.ts";
import { ApiError } from "../http-error.ts";
import { meterRequest } from "../middleware/body-guard.ts";
import { currentUser, requireUser } from "../middleware/session.ts";
import { planOf } from "../services/plan.ts";
import { fileTooLarge } from "../services/compression/upload-intake.ts";
import { contentDisposition } from "../services/compression/content-disposition.ts";
import { restoredName, restoreJpeg } from "../services/restore.ts";
import { declaredFileName } from "./read-image-body.ts";

/** The raw body, refused past the plan's per-file limit (as it streams, and by its declared length). */
async function readWithin(request: Request, limit: number, tooLarge: () => Error): Promise<Uint8Array> {
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) throw tooLarge();
  let size = 0;
  const metered = meterRequest(request, {
    onChunk: (bytes) => {
      if ((size += bytes) > limit) throw tooLarge();
    },
  });
  return new Uint8Array(await new Response(metered.body).arrayBuffer());
}

export async function restore(c: Context<AppEnv>): Promise<Response> {
  const plan = planOf(currentUser(c));
  const jxl = await readWithin(c.req.raw, plan.maxFileBytes, () => fileTooLarge(plan));
  const name = c.req.query("name") ?? declaredFileName(c.req.header("Content-Disposition") ?? null);
  return await jpegResponse(c, jxl, restoredName(name), "attachment");
}

/** The JPEG `jxl` holds, as an answer named `name` (Compare shows a JPEG XL result by it: the same pixels). */
export async function jpegResponse(
  c: Context<AppEnv>,
  jxl: Uint8Array,
  name: string,
  disposition: "attachment" | "inline",
): Promise<Response> {
  const restorer = c.var.deps.restorer;
  if (!restorer) throw new ApiError(503, "This server does not restore JPEG XL files");
  let jpeg: Uint8Array;
  try {
    jpeg = await restoreJpeg(restorer, jxl);
  } catch (error) {
    if (isCodecError(error)) throw new ApiError(HTTP_STATUS_BY_CODE[error.code] as ContentfulStatusCode, error.message);
    throw error;
  }
  return new Response(jpeg as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": "image/jpeg",
      "Content-Length": String(jpeg.length),
      // As a compression's answer names them (the CLI checks the length it reads against it).
      [V1_HEADERS.originalSize]: String(jxl.length),
      [V1_HEADERS.compressedSize]: String(jpeg.length),
      "Content-Disposition": contentDisposition(name, disposition),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** The signed-in route; the API's is mounted in v1.ts behind its key check. */
export const restoreRoutes = new Hono<AppEnv>().use("/restore", requireUser).post("/restore", restore);

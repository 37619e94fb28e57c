import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { meterRequest } from "../middleware/body-guard.ts";
import { currentUser, requireUser } from "../middleware/session.ts";
import { IMAGES_FIELD, readUploadForm, uploadSettingsSoFar } from "../services/compression/upload-form.ts";
import { readMultipart, UPLOAD_FIELD_LIMITS } from "./read-multipart.ts";
import { STATUS_BY_CODE } from "../http-error.ts";
import type { CompressResponse } from "../../contract/jobs.ts";

/** One request may carry at most this much, whatever the plan: the bytes are held in memory. */
export const MAX_REQUEST_BYTES = 256 * 1024 * 1024;

/** POST /compress: one upload = one batch (DESIGN §5). Its body is bounded as it streams (app.ts). */
export const compressRoutes = new Hono<AppEnv>()
  .post("/compress", requireUser, async (c) => {
    const user = currentUser(c);
    const { admission } = c.var.deps.compression;
    const intake = await admission.openUpload(user);
    try {
      const declared = c.req.header("Content-Length"); // already checked by the body guard
      if (declared !== undefined) intake.declare(Number(declared));
      const request = meterRequest(c.req.raw, { onChunk: (bytes) => intake.take(bytes) });
      const body = await readMultipart(request, {
        ...UPLOAD_FIELD_LIMITS,
        maxFileBytes: intake.plan.maxFileBytes,
        onFile: (count) => intake.countFile(count),
        fileTooLarge: () => intake.fileTooLarge(),
        // Each image is judged, and its work begun, while the rest of the body arrives (ADR 056).
        onFileRead: (field, file, fieldsSoFar) => {
          if (field === IMAGES_FIELD) admission.arrived(user, intake, file, uploadSettingsSoFar(fieldsSoFar));
        },
      });
      const { refused, ...result } = await admission.admit(user, readUploadForm(body), intake);
      // Each refused file with the status it would have answered alone.
      const response: CompressResponse = {
        ...result,
        refused: refused.map(({ filename, code, error }) => ({ filename, status: STATUS_BY_CODE[code], error })),
      };
      return c.json(response, 201);
    } finally {
      intake.release();
    }
  });

import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";
import { ApiError } from "../http-error.ts";
import { currentUser, requireUser } from "../middleware/session.ts";
import { readUploadForm } from "../services/compression/upload-form.ts";
import { PLANS } from "../../contract/plans.ts";
import { readMultipart } from "./read-multipart.ts";

/** One request may carry at most this much, whatever the plan: the bytes are held in memory. */
export const MAX_REQUEST_BYTES = 256 * 1024 * 1024;

/** POST /compress: one upload = one batch (DESIGN §5). */
export const compressRoutes = new Hono<AppEnv>()
  .post(
    "/compress",
    requireUser,
    bodyLimit({
      maxSize: MAX_REQUEST_BYTES,
      onError: () => {
        throw new ApiError(413, "The upload is larger than 256 MB in total; split it into smaller batches");
      },
    }),
    async (c) => {
      const body = await readMultipart(c.req.raw, PLANS.premium.maxFileBytes);
      const form = readUploadForm(body);
      const result = await c.var.deps.compression.admit(currentUser(c), form);
      return c.json(result, 201);
    },
  );

import { Hono } from "hono";
import { jpegResponse } from "./restore.ts";
import { restoredName } from "../services/restore.ts";
import type { AppEnv } from "../app-env.ts";
import { currentUser, requireUser } from "../middleware/session.ts";
import { contentDisposition } from "../services/compression/content-disposition.ts";
import type { FileDownload } from "../services/compression/downloads.ts";
import { parseInput } from "../services/validation.ts";
import { PREVIEW_SIZES } from "../../contract/jobs.ts";
import { z } from "zod";
import { zipResponse, zipVersions } from "./zip-response.ts";
import { readJson } from "./request.ts";
import { recompressSchema } from "../../contract/settings.ts";

const previewQuery = z.object({ size: z.enum(PREVIEW_SIZES).default("original") });

export const fileResponse = (file: FileDownload, disposition: "attachment" | "inline") =>
  new Response(file.body, {
    headers: {
      "Content-Type": file.mimeType,
      "Content-Length": String(file.size),
      "Content-Disposition": contentDisposition(file.name, disposition),
      // Private: these are a user's photos.
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });

/** Jobs, their results and originals; every route checks ownership (404 otherwise). */
export const jobRoutes = new Hono<AppEnv>()
  .use("/jobs/*", requireUser)
  .use("/jobs", requireUser)
  .use("/download/*", requireUser)
  .use("/preview/*", requireUser)
  .get("/jobs", async (c) => c.json({ jobs: await c.var.deps.compression.queries.listJobs(currentUser(c).id) }))
  .get("/jobs/download.zip", async (c) => {
    const versions = zipVersions(c.req.query("versions"));
    const { name, files } = await c.var.deps.compression.downloads.allResults(currentUser(c).id, versions);
    return zipResponse(name, files);
  })
  .post("/jobs/:id/recompress", async (c) => {
    const { settings } = parseInput(recompressSchema, await readJson(c));
    return c.json(
      await c.var.deps.compression.admission.recompressJob(currentUser(c), c.req.param("id"), settings),
      201,
    );
  })
  .delete("/jobs/:id", async (c) => {
    await c.var.deps.compression.controls.deleteJob(currentUser(c).id, c.req.param("id"));
    return c.json({ success: true });
  })
  .get("/download/:id", async (c) => {
    const file = await c.var.deps.compression.downloads.download(currentUser(c).id, c.req.param("id"));
    // `?as=jpeg`: a JPEG XL result as the JPEG it holds (Compare shows it so: browsers may not show JPEG XL).
    if (c.req.query("as") === "jpeg" && file.mimeType === "image/jxl") {
      const jxl = new Uint8Array(await new Response(file.body).arrayBuffer());
      return await jpegResponse(c, jxl, restoredName(file.name), "inline");
    }
    return fileResponse(file, "attachment");
  })
  .get("/preview/:id", async (c) => {
    const { size } = parseInput(previewQuery, c.req.query());
    const file = await c.var.deps.compression.downloads.preview(currentUser(c).id, c.req.param("id"), size);
    return fileResponse(file, "inline");
  });

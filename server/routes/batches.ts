import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { currentUser, requireUser } from "../middleware/session.ts";
import { zipResponse, zipVersions } from "./zip-response.ts";
import { readJson } from "./request.ts";
import { parseInput } from "../services/validation.ts";
import { recompressSchema } from "../../contract/settings.ts";

/** Batches and their controls (spec §4 status rules). */
export const batchRoutes = new Hono<AppEnv>()
  .use("/batches", requireUser)
  .use("/batches/*", requireUser)
  .get(
    "/batches",
    async (c) => c.json({ batches: await c.var.deps.compression.queries.listBatches(currentUser(c).id) }),
  )
  .post(
    "/batches/:id/pause",
    async (c) =>
      c.json({ batch: await c.var.deps.compression.controls.pauseBatch(currentUser(c).id, c.req.param("id")) }),
  )
  .post(
    "/batches/:id/resume",
    async (c) =>
      c.json({ batch: await c.var.deps.compression.controls.resumeBatch(currentUser(c).id, c.req.param("id")) }),
  )
  .delete(
    "/batches/:id",
    async (c) =>
      c.json({ batch: await c.var.deps.compression.controls.cancelBatch(currentUser(c).id, c.req.param("id")) }),
  )
  .post("/batches/:id/recompress", async (c) => {
    const { settings } = parseInput(recompressSchema, await readJson(c));
    return c.json(
      await c.var.deps.compression.admission.recompressBatch(currentUser(c), c.req.param("id"), settings),
      201,
    );
  })
  .get("/batches/:id/download.zip", async (c) => {
    const versions = zipVersions(c.req.query("versions"));
    const { name, files } = await c.var.deps.compression.downloads.zipEntries(
      currentUser(c).id,
      c.req.param("id"),
      versions,
    );
    const suffix = versions === "all" ? "all-versions" : "compressed";
    return zipResponse(`${name || "images"}-${suffix}.zip`, files);
  });

import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { currentUser, requireUser } from "../middleware/session.ts";
import { saveSettings, storedSettings } from "../services/user-settings.ts";
import { readJson } from "./request.ts";

/** The user's queue slots, daily usage and remembered settings. */
export const accountStateRoutes = new Hono<AppEnv>()
  .use("/queue/*", requireUser)
  .use("/usage", requireUser)
  .use("/settings", requireUser)
  .get("/queue/status", async (c) => c.json(await c.var.deps.compression.queries.queueStatus(currentUser(c))))
  .get("/usage", async (c) => c.json(await c.var.deps.compression.queries.usage(currentUser(c))))
  .get("/settings", (c) => c.json({ settings: storedSettings(currentUser(c)) }))
  .put(
    "/settings",
    async (c) => c.json({ settings: await saveSettings(c.var.deps.db, currentUser(c), await readJson(c)) }),
  );

import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { createApiKeySchema } from "../../contract/api-keys.ts";
import { currentUser, requireUser } from "../middleware/session.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "../services/api-keys.ts";
import { parseInput } from "../services/validation.ts";
import { readJson } from "./request.ts";

/**
 * The signed-in user's developer API keys (ADR 025), under the session and CSRF rules of every
 * `/api` route. The secret is in the creation's answer only; a revoke answers 204 and holds at once.
 */
export const apiKeyRoutes = new Hono<AppEnv>()
  .use("/keys", requireUser)
  .use("/keys/*", requireUser)
  .post("/keys", async (c) => {
    const input = parseInput(createApiKeySchema, await readJson(c));
    return c.json(await createApiKey(c.var.deps.db, currentUser(c), input), 201, { "Cache-Control": "no-store" });
  })
  .get("/keys", async (c) => c.json({ keys: await listApiKeys(c.var.deps.db, currentUser(c).id) }))
  .delete("/keys/:id", async (c) => {
    await revokeApiKey(c.var.deps.db, currentUser(c).id, c.req.param("id"));
    return c.body(null, 204);
  });

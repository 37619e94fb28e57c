import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { submitContactMessage } from "../services/contact.ts";
import { clientIp, readJson } from "./request.ts";

/** POST /contact: the contact form (open to visitors; rate-limited per IP). */
export const contactRoutes = new Hono<AppEnv>()
  .post("/contact", async (c) => {
    await submitContactMessage(c.var.deps.db, await readJson(c), clientIp(c));
    // The same answer whether stored or dropped by the honeypot.
    return c.json({ success: true }, 201);
  });

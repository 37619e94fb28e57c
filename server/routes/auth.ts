import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { login, register, toUser } from "../services/accounts.ts";
import { createSession, invalidateOtherSessions, invalidateSession } from "../services/sessions.ts";
import { clearSessionCookie, currentUser, requireUser, setSessionCookie } from "../middleware/session.ts";
import { clientIp, readJson } from "./request.ts";
import { ApiError } from "../http-error.ts";
import type { LogoutOthersResponse } from "../../contract/accounts.ts";

/** POST /register, /login, /logout and GET /user (spec §7: the user, or null when signed out); /logout-others ends the user's other sessions. */
export const authRoutes = new Hono<AppEnv>()
  .post("/register", async (c) => {
    const { db, registrations, passwords } = c.var.deps;
    const wait = await registrations.take(clientIp(c));
    if (wait > 0) {
      throw new ApiError(429, "Too many new accounts from your network; please try again later", {
        "Retry-After": String(wait),
      });
    }
    const row = await register(db, passwords, await readJson(c));
    const session = await createSession(db, row.id);
    setSessionCookie(c, session.token, session.expiresAt);
    return c.json(toUser(row), 201);
  })
  .post("/login", async (c) => {
    const { db, throttle, passwords } = c.var.deps;
    const row = await login(db, throttle, passwords, await readJson(c), clientIp(c));
    const session = await createSession(db, row.id);
    setSessionCookie(c, session.token, session.expiresAt);
    return c.json(toUser(row));
  })
  .post("/logout", async (c) => {
    if (c.var.sessionToken) await invalidateSession(c.var.deps.db, c.var.sessionToken);
    clearSessionCookie(c);
    return c.json({ success: true });
  })
  .post("/logout-others", requireUser, async (c) => {
    const ended = await invalidateOtherSessions(c.var.deps.db, currentUser(c).id, c.var.sessionToken!);
    return c.json({ success: true, ended } satisfies LogoutOthersResponse);
  })
  // Signed out is a state, not an error: 200 with null, so a visitor's browser logs no failed request.
  .get("/user", (c) => c.json(c.var.user ? toUser(c.var.user) : null));

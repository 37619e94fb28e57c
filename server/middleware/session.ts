import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { UserRow } from "../../db/schema.ts";
import { ApiError } from "../http-error.ts";
import { SESSION_COOKIE, validateSession } from "../services/sessions.ts";
import { settleSubscription } from "../services/billing/subscriptions.ts";
import type { AppEnv } from "../app-env.ts";

export function setSessionCookie(c: Context<AppEnv>, token: string, expiresAt: Date): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: c.var.deps.secureCookies,
    path: "/",
    expires: expiresAt,
  });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: c.var.deps.secureCookies });
}

/** Resolves the session cookie to `c.var.user` (null when signed out) and renews it. */
export const loadSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = getCookie(c, SESSION_COOKIE);
  c.set("sessionToken", token ?? null);
  c.set("user", null);
  if (token) {
    const found = await validateSession(c.var.deps.db, token);
    if (found) {
      // An ended premium period switches the plan back here, for every route.
      c.set("user", await settleSubscription(c.var.deps.db, found.user, Date.now()));
      if (found.renewedUntil) setSessionCookie(c, token, found.renewedUntil);
    } else {
      clearSessionCookie(c);
    }
  }
  await next();
};

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user) throw new ApiError(401, "Sign in to continue");
  await next();
};

/** The signed-in user; only call behind `requireUser`. */
export function currentUser(c: Context<AppEnv>): UserRow {
  const user = c.var.user;
  if (!user) throw new ApiError(401, "Sign in to continue");
  return user;
}

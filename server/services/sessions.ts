import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { Db } from "../../db/client.ts";
import type { UserRow } from "../../db/schema.ts";
import {
  deleteExpiredSessions,
  deleteSession,
  extendSession,
  findSessionWithUser,
  insertSession,
} from "../../db/queries/sessions.ts";

export const SESSION_COOKIE = "session";
const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_TTL_MS = 30 * DAY_MS;
/** Renew when less than half the lifetime is left, so active users stay signed in. */
const RENEW_BELOW_MS = 15 * DAY_MS;

const sessionIdOf = (token: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(token)));

export interface Session {
  token: string;
  expiresAt: Date;
}

export async function createSession(db: Db, userId: number, now = new Date()): Promise<Session> {
  const token = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await insertSession(db, { id: sessionIdOf(token), userId, expiresAt });
  return { token, expiresAt };
}

export interface ValidatedSession {
  user: UserRow;
  /** Set when the expiry moved, so the cookie must be re-sent. */
  renewedUntil: Date | null;
}

export async function validateSession(db: Db, token: string, now = new Date()): Promise<ValidatedSession | null> {
  const id = sessionIdOf(token);
  const found = await findSessionWithUser(db, id);
  if (!found) return null;
  if (found.session.expiresAt.getTime() <= now.getTime()) {
    await deleteSession(db, id);
    return null;
  }
  if (found.session.expiresAt.getTime() - now.getTime() < RENEW_BELOW_MS) {
    const renewedUntil = new Date(now.getTime() + SESSION_TTL_MS);
    await extendSession(db, id, renewedUntil);
    return { user: found.user, renewedUntil };
  }
  return { user: found.user, renewedUntil: null };
}

export function invalidateSession(db: Db, token: string): Promise<void> {
  return deleteSession(db, sessionIdOf(token));
}

/** Removes sessions nobody presented before they expired (those presented are removed on sight). */
export function purgeExpiredSessions(db: Db, now = new Date()): Promise<void> {
  return deleteExpiredSessions(db, now);
}

import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { Db } from "../../db/client.ts";
import type { UserRow } from "../../db/schema.ts";
import {
  deleteExpiredSessions,
  deleteOtherSessions,
  deleteSession,
  extendSession,
  findSessionWithUser,
  insertSession,
} from "../../db/queries/sessions.ts";

export const SESSION_COOKIE = "session";
const DAY_MS = 24 * 60 * 60 * 1000;
/** Sliding: a session unused this long ends (ADR 010). */
export const SESSION_IDLE_MS = 14 * DAY_MS;
/** Absolute: however active, a session ends this long after sign-in (OWASP ASVS L2 3.3.2). */
export const SESSION_MAX_AGE_MS = 30 * DAY_MS;
/** Renew when less than half the idle time is left, so active users stay signed in. */
const RENEW_BELOW_MS = SESSION_IDLE_MS / 2;

const sessionIdOf = (token: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(token)));

export interface Session {
  token: string;
  expiresAt: Date;
}

export async function createSession(db: Db, userId: number, now = new Date()): Promise<Session> {
  const token = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
  const expiresAt = new Date(now.getTime() + SESSION_IDLE_MS);
  await insertSession(db, { id: sessionIdOf(token), userId, expiresAt, createdAt: now });
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
  const expiresAt = found.session.expiresAt.getTime();
  const endOfLife = found.session.createdAt.getTime() + SESSION_MAX_AGE_MS;
  if (Math.min(expiresAt, endOfLife) <= now.getTime()) {
    await deleteSession(db, id);
    return null;
  }
  const renewed = Math.min(now.getTime() + SESSION_IDLE_MS, endOfLife);
  if (expiresAt - now.getTime() < RENEW_BELOW_MS && renewed > expiresAt) {
    const renewedUntil = new Date(renewed);
    await extendSession(db, id, renewedUntil);
    return { user: found.user, renewedUntil };
  }
  return { user: found.user, renewedUntil: null };
}

export function invalidateSession(db: Db, token: string): Promise<void> {
  return deleteSession(db, sessionIdOf(token));
}

/** Ends every session of the user but the one presenting `token`; returns how many ended. */
export function invalidateOtherSessions(db: Db, userId: number, token: string): Promise<number> {
  return deleteOtherSessions(db, userId, sessionIdOf(token));
}

/** Removes sessions nobody presented before they expired (those presented are removed on sight). */
export function purgeExpiredSessions(db: Db, now = new Date()): Promise<void> {
  return deleteExpiredSessions(db, now);
}

import { and, eq, lt, ne } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type SessionRow, sessions, type UserRow, users } from "../schema.ts";

export async function insertSession(db: Db, row: SessionRow): Promise<void> {
  await db.insert(sessions).values(row);
}

export async function findSessionWithUser(
  db: Db,
  id: string,
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const rows = await db.select({ session: sessions, user: users }).from(sessions)
    .innerJoin(users, eq(sessions.userId, users.id))
    .where(eq(sessions.id, id)).limit(1);
  return rows[0];
}

export async function extendSession(db: Db, id: string, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

export async function deleteOtherSessions(db: Db, userId: number, keepId: string): Promise<number> {
  const result = await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)));
  return result.rowsAffected;
}

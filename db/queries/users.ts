import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type UserRow, users } from "../schema.ts";

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(users.id, id) });
}

export function findUsersByIds(db: Db, ids: number[]): Promise<UserRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select().from(users).where(inArray(users.id, ids));
}

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: sql`lower(${users.username}) = lower(${username})` });
}

export type NewUser = Pick<UserRow, "username" | "passwordHash" | "email" | "firstName" | "lastName">;

/** Inserts a user; returns undefined when the username is taken (any case). */
export async function insertUser(db: Db, user: NewUser): Promise<UserRow | undefined> {
  const rows = await db.insert(users).values(user).onConflictDoNothing().returning();
  return rows[0];
}

export async function updateUserSettings(db: Db, id: number, settingsJson: string): Promise<void> {
  await db.update(users).set({ settingsJson }).where(eq(users.id, id));
}

import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type ApiKeyRow, apiKeys, type UserRow, users } from "../schema.ts";

const active = (userId: number) => and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt));

/**
 * Inserts a key unless the user already has `max` active ones: the count and the insert are one
 * statement, so parallel requests cannot pass the limit together. False when it was full.
 */
export async function insertApiKeyWithin(db: Db, row: ApiKeyRow, max: number): Promise<boolean> {
  const result = await db.run(sql`
    INSERT INTO api_keys (id, user_id, name, key_hash, prefix, created_at, last_used_at, revoked_at)
    SELECT ${row.id}, ${row.userId}, ${row.name}, ${row.keyHash}, ${row.prefix}, ${row.createdAt.getTime()}, NULL, NULL
    WHERE (SELECT count(*) FROM api_keys WHERE user_id = ${row.userId} AND revoked_at IS NULL) < ${max}`);
  return result.rowsAffected > 0;
}

/** The user's keys that still work, newest first. */
export function listActiveApiKeys(db: Db, userId: number): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(active(userId)).orderBy(desc(apiKeys.createdAt));
}

/** Revokes the user's active key; false when it is not theirs or already revoked. */
export async function revokeApiKey(db: Db, userId: number, id: string, at: Date): Promise<boolean> {
  const rows = await db.update(apiKeys).set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), active(userId))).returning({ id: apiKeys.id });
  return rows.length > 0;
}

/** The key with this hash (revoked or not) and its owner. */
export async function findApiKeyByHash(
  db: Db,
  keyHash: string,
): Promise<{ key: ApiKeyRow; user: UserRow } | undefined> {
  const rows = await db.select({ key: apiKeys, user: users }).from(apiKeys)
    .innerJoin(users, eq(apiKeys.userId, users.id))
    .where(eq(apiKeys.keyHash, keyHash)).limit(1);
  return rows[0];
}

/** Records a use, unless one was recorded since `unlessSince` (by this or another instance). */
export async function touchApiKey(db: Db, id: string, at: Date, unlessSince: Date): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: at })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, unlessSince))));
}

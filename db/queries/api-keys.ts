import { and, asc, count, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type ApiKeyRow, apiKeys, type UserRow, users } from "../schema.ts";

const active = (userId: number) => and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt));

/** At most `max` keys created (revoked or not) since `since`. */
export interface CreationLimit {
  max: number;
  since: Date;
}

/**
 * Inserts a key unless the user already has `maxActive` active ones or created `recent.max` since
 * `recent.since`: the counts and the insert are one statement, so parallel requests cannot pass
 * either limit together. False when one was reached.
 */
export async function insertApiKeyWithin(
  db: Db,
  row: ApiKeyRow,
  maxActive: number,
  recent: CreationLimit,
): Promise<boolean> {
  const result = await db.run(sql`
    INSERT INTO api_keys (id, user_id, name, key_hash, prefix, created_at, last_used_at, revoked_at)
    SELECT ${row.id}, ${row.userId}, ${row.name}, ${row.keyHash}, ${row.prefix}, ${row.createdAt.getTime()}, NULL, NULL
    WHERE (SELECT count(*) FROM api_keys WHERE user_id = ${row.userId} AND revoked_at IS NULL) < ${maxActive}
      AND (SELECT count(*) FROM api_keys WHERE user_id = ${row.userId} AND created_at > ${recent.since.getTime()})
        < ${recent.max}`);
  return result.rowsAffected > 0;
}

/** When the user's keys created since `since` were created, oldest first. */
export async function creationTimesSince(db: Db, userId: number, since: Date): Promise<Date[]> {
  const rows = await db.select({ at: apiKeys.createdAt }).from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), gt(apiKeys.createdAt, since))).orderBy(asc(apiKeys.createdAt));
  return rows.map((r) => r.at);
}

/** How many keys the user holds that still work. */
export async function countActiveApiKeys(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(apiKeys).where(active(userId));
  return row?.n ?? 0;
}

/** Deletes the rows of keys revoked before `before` (of every user); how many. */
export async function deleteRevokedApiKeys(db: Db, before: Date): Promise<number> {
  const result = await db.delete(apiKeys).where(lt(apiKeys.revokedAt, before));
  return result.rowsAffected;
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

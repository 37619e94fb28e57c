import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { dailyUsage } from "../schema.ts";

/**
 * Reserves `count` units of `day`'s quota in one statement, so parallel uploads
 * cannot pass the limit. Returns false (and reserves nothing) when it would.
 */
export async function reserveQuota(
  db: Db,
  userId: number,
  day: string,
  count: number,
  limit: number,
): Promise<boolean> {
  if (count > limit) return false;
  const rows = await db.run(sql`
    INSERT INTO daily_usage (user_id, day, used) VALUES (${userId}, ${day}, ${count})
    ON CONFLICT (user_id, day) DO UPDATE SET used = used + excluded.used
    WHERE daily_usage.used + excluded.used <= ${limit}`);
  return rows.rowsAffected === 1;
}

/** Counts units without a limit (Premium), so usage still shows what was done. */
export async function addUsage(db: Db, userId: number, day: string, count: number): Promise<void> {
  await db.insert(dailyUsage).values({ userId, day, used: count })
    .onConflictDoUpdate({
      target: [dailyUsage.userId, dailyUsage.day],
      set: { used: sql`${dailyUsage.used} + ${count}` },
    });
}

/** Undoes a reservation that never became work (not counted as a refund). */
export async function releaseQuota(db: Db, userId: number, day: string, count: number): Promise<void> {
  await db.update(dailyUsage).set({ used: sql`max(0, ${dailyUsage.used} - ${count})` })
    .where(and(eq(dailyUsage.userId, userId), eq(dailyUsage.day, day)));
}

/**
 * Gives one unit of `day`'s quota back unless `cap` units were already given
 * back that day, in one statement. Returns whether it was given back.
 */
export async function refundQuota(db: Db, userId: number, day: string, cap: number): Promise<boolean> {
  const result = await db.run(sql`
    UPDATE daily_usage SET used = max(0, used - 1), refunded = refunded + 1
    WHERE user_id = ${userId} AND day = ${day} AND refunded < ${cap}`);
  return result.rowsAffected === 1;
}

export async function usedOn(db: Db, userId: number, day: string): Promise<number> {
  const row = await db.query.dailyUsage.findFirst({
    where: and(eq(dailyUsage.userId, userId), eq(dailyUsage.day, day)),
  });
  return row?.used ?? 0;
}

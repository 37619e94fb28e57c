import { and, eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { dailyUsage } from "../schema.ts";

// Writes to daily_usage happen inside the job transitions (server/services/lifecycle/transitions.ts).

export async function usedOn(db: Db, userId: number, day: string): Promise<number> {
  const row = await db.query.dailyUsage.findFirst({
    where: and(eq(dailyUsage.userId, userId), eq(dailyUsage.day, day)),
  });
  return row?.used ?? 0;
}

import { and, asc, count, eq, gt } from "drizzle-orm";
import type { Db } from "../client.ts";
import { contactMessages } from "../schema.ts";

export type NewContactMessage = Pick<
  typeof contactMessages.$inferInsert,
  "name" | "email" | "subject" | "message" | "ip"
>;

export async function insertContactMessage(db: Db, message: NewContactMessage): Promise<number> {
  const [row] = await db.insert(contactMessages).values(message).returning({ id: contactMessages.id });
  return row!.id;
}

/** How many messages `ip` sent after `since`, and when the oldest of them was sent. */
export async function recentMessagesFrom(
  db: Db,
  ip: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const where = and(eq(contactMessages.ip, ip), gt(contactMessages.createdAt, since));
  const [total] = await db.select({ n: count() }).from(contactMessages).where(where);
  const [first] = await db.select({ at: contactMessages.createdAt }).from(contactMessages).where(where)
    .orderBy(asc(contactMessages.createdAt)).limit(1);
  return { count: total?.n ?? 0, oldest: first?.at ?? null };
}

export function listContactMessages(db: Db) {
  return db.select().from(contactMessages).orderBy(asc(contactMessages.id));
}

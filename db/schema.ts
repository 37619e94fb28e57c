import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull(),
  passwordHash: text("password_hash").notNull(),
  email: text("email"),
  firstName: text("first_name"),
  lastName: text("last_name"),
  subscriptionStatus: text("subscription_status").notNull().default("free"),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`),
}, (t) => [
  // Usernames are unique regardless of case.
  uniqueIndex("users_username_lower_unique").on(sql`lower(${t.username})`),
]);

export const sessions = sqliteTable("sessions", {
  // SHA-256 of the cookie token, hex: a stolen database cannot be replayed as cookies.
  id: text("id").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
}, (t) => [index("sessions_user_id_idx").on(t.userId)]);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

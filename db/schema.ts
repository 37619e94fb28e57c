import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { BATCH_STATUSES, JOB_STATUSES } from "../contract/jobs.ts";
import { CODEC_IDS } from "../contract/settings.ts";
import { FORMAT_CHOICES } from "../contract/formats.ts";

const createdAt = () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`);

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull(),
  passwordHash: text("password_hash").notNull(),
  email: text("email"),
  firstName: text("first_name"),
  lastName: text("last_name"),
  subscriptionStatus: text("subscription_status").notNull().default("free"),
  stripeCustomerId: text("stripe_customer_id"),
  stripeSubscriptionId: text("stripe_subscription_id"),
  /** Unix seconds. */
  currentPeriodEnd: integer("current_period_end"),
  cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
  /** The compressor settings the user last used (JSON), remembered across sessions. */
  settingsJson: text("settings_json"),
  createdAt: createdAt(),
}, (t) => [
  // Usernames are unique regardless of case.
  uniqueIndex("users_username_lower_unique").on(sql`lower(${t.username})`),
  index("users_stripe_customer_idx").on(t.stripeCustomerId),
]);

export const sessions = sqliteTable("sessions", {
  // SHA-256 of the cookie token, hex: a stolen database cannot be replayed as cookies.
  id: text("id").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  /** Sliding: moves forward while the session is used. */
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  /** When the user signed in: bounds the session's whole life, however active. */
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`0`),
}, (t) => [index("sessions_user_id_idx").on(t.userId)]);

export const batches = sqliteTable("batches", {
  id: text("id").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  status: text("status", { enum: BATCH_STATUSES }).notNull().default("pending"),
  totalFiles: integer("total_files").notNull(),
  totalOriginalSize: integer("total_original_size").notNull(),
  /** The batch's whole settings (compression and batch options) as JSON: contract/settings.ts, ADR 024. */
  settingsJson: text("settings_json").notNull(),
  createdAt: createdAt(),
  /** The API key that admitted it through `/api/v1` (null for the web app's uploads); no FK: keys are revoked, not deleted. */
  apiKeyId: text("api_key_id"),
}, (t) => [index("batches_user_idx").on(t.userId, t.createdAt)]);

export const jobs = sqliteTable("jobs", {
  id: text("id").primaryKey(),
  batchId: text("batch_id").notNull().references(() => batches.id, { onDelete: "cascade" }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  /** Position in its batch, for a stable order. */
  seq: integer("seq").notNull(),
  filename: text("filename").notNull(),
  status: text("status", { enum: JOB_STATUSES }).notNull().default("pending"),
  progress: integer("progress").notNull().default(0),
  originalSize: integer("original_size").notNull(),
  compressedSize: integer("compressed_size"),
  quality: integer("quality").notNull(),
  /** The result's format; `auto` until an automatic choice is made (contract/formats.ts). */
  format: text("format", { enum: FORMAT_CHOICES }).notNull(),
  /** The encoder that made the result (null until completed, and when the original was kept). */
  encoder: text("encoder", { enum: CODEC_IDS }),
  width: integer("width"),
  height: integer("height"),
  errorMessage: text("error_message"),
  /** Why it failed, beside the message: server/domain-error.ts JOB_ERROR_CODES (null before migration 0012). */
  errorCode: text("error_code"),
  keptOriginal: integer("kept_original", { mode: "boolean" }).notNull().default(false),
  scoresJson: text("scores_json"),
  /** Completed with its score still to measure (a deferred score, DESIGN §4). */
  scoreDue: integer("score_due", { mode: "boolean" }).notNull().default(false),
  metadataJson: text("metadata_json"),
  /** A web set's files (contract/web-sets.ts `WebSet`, JSON); null for one output. */
  webSetJson: text("web_set_json"),
  /** format=auto's report (contract/formats.ts `FormatChoiceReport`, JSON); null when the format was set. */
  formatChoiceJson: text("format_choice_json"),
  /** A lossless container's (JPEG XL's) held JPEG size: "JPEG 412 KB → JPEG XL 338 KB"; null otherwise. */
  heldSize: integer("held_size"),
  /** Whether this job still holds a unit of the daily quota (false once refunded). */
  charged: integer("charged", { mode: "boolean" }).notNull().default(false),
  /** The UTC day (YYYY-MM-DD) whose quota it was charged to. */
  quotaDay: text("quota_day"),
  /** A re-compression: the job whose upload it re-used (the first one, for a chain). */
  sourceJobId: text("source_job_id"),
  createdAt: createdAt(),
  completedAt: integer("completed_at", { mode: "timestamp_ms" }),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
  expired: integer("expired", { mode: "boolean" }).notNull().default(false),
  /** Width × height from the header at admission (0 if unreadable): the scheduler's memory estimate. */
  pixels: integer("pixels").notNull().default(0),
  /** The instance (a random id per process) whose queue holds this unfinished job, or that runs it. */
  leaseOwner: text("lease_owner"),
  /** Until when the owner's claim holds; renewed while it lives, after it any instance may adopt the job. */
  leaseExpiresAt: integer("lease_expires_at", { mode: "timestamp_ms" }),
}, (t) => [
  index("jobs_user_created_idx").on(t.userId, t.createdAt),
  index("jobs_batch_idx").on(t.batchId, t.seq),
  index("jobs_status_idx").on(t.status),
  index("jobs_source_idx").on(t.sourceJobId),
  index("jobs_lease_idx").on(t.leaseOwner),
]);

/**
 * Developer API keys (issue 23, ADR 025): only the SHA-256 of the whole key is stored, with its
 * first characters for display. A revoked key keeps its row (so it answers "revoked", not
 * "unknown") but no longer counts, lists or authenticates.
 */
export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  /** SHA-256 of the whole key, hex. */
  keyHash: text("key_hash").notNull(),
  /** The key's first API_KEY_DISPLAY_LENGTH characters, shown in lists. */
  prefix: text("prefix").notNull(),
  createdAt: createdAt(),
  /** Written at most once a minute per key. */
  lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
}, (t) => [
  uniqueIndex("api_keys_key_hash_unique").on(t.keyHash),
  index("api_keys_user_idx").on(t.userId),
]);

/** Quota reserved per user per UTC day; admission reserves atomically. */
export const dailyUsage = sqliteTable("daily_usage", {
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  day: text("day").notNull(),
  used: integer("used").notNull().default(0),
  /** Units given back that day (failed, cancelled, already optimised): capped, so failures cannot buy unbounded work. */
  refunded: integer("refunded").notNull().default(0),
}, (t) => [primaryKey({ columns: [t.userId, t.day] })]);

/** Stripe event ids already applied: webhooks are idempotent. */
export const billingEvents = sqliteTable("billing_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  createdAt: createdAt(),
});

/** Local test billing's checkout sessions (only used without Stripe keys). */
export const testCheckoutSessions = sqliteTable("test_checkout_sessions", {
  id: text("id").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  status: text("status").notNull().default("open"),
  createdAt: createdAt(),
});

export const contactMessages = sqliteTable("contact_messages", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  email: text("email").notNull(),
  subject: text("subject").notNull(),
  message: text("message").notNull(),
  ip: text("ip"),
  createdAt: createdAt(),
});

/**
 * One row per counted event (a failed or pending sign-in, a sign-up) under a key: a SHA-256 of
 * what is counted (pair, address, username), never the address itself. Shared by every instance
 * on the database; rows older than the longest window are pruned (ADR 019).
 */
export const throttleEvents = sqliteTable("throttle_events", {
  id: integer("id").primaryKey(),
  key: text("key").notNull(),
  /** Unix ms. */
  at: integer("at").notNull(),
}, (t) => [
  index("throttle_events_key_at_idx").on(t.key, t.at),
  index("throttle_events_at_idx").on(t.at),
]);

/** Addresses a user signed in from (key: SHA-256 of username and address), exempt from the per-username cap. */
export const knownAddresses = sqliteTable("known_addresses", {
  key: text("key").primaryKey(),
  /** Unix ms of the last successful sign-in from there. */
  lastSuccessAt: integer("last_success_at").notNull(),
}, (t) => [index("known_addresses_last_success_idx").on(t.lastSuccessAt)]);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type BatchRow = typeof batches.$inferSelect;
export type JobRow = typeof jobs.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

/**
 * SQL fragments the transitions, the leases and the queue's reads share, so that "unfinished",
 * "no instance holds it" and "a live instance holds it" mean the same in every statement: a
 * claim and the read that offered the job must agree on which jobs are free, or a job is offered
 * that can never be claimed (or claimed twice).
 */
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../../db/client.ts";
import { DEFAULT_SAVED_SETTINGS, type SavedSettings } from "../../../contract/settings.ts";

export const UNFINISHED = ["pending", "processing"] as const;

/** A job no instance holds: pending for anyone to adopt, or ended. */
export const NO_LEASE = { leaseOwner: null, leaseExpiresAt: null };

/** SQL: no live instance holds the job (`table` names the jobs row): no owner, or its lease lapsed by `now`. */
export const leaseFree = (now: number, table = "jobs"): SQL => {
  const t = sql.raw(table);
  return sql`(${t}.lease_owner IS NULL OR ${t}.lease_expires_at IS NULL OR ${t}.lease_expires_at <= ${now})`;
};

/** SQL: a live instance holds the job now (the complement of `leaseFree`). */
export const leaseHeld = (now: number, table = "jobs"): SQL => {
  const t = sql.raw(table);
  return sql`${t}.lease_owner IS NOT NULL AND ${t}.lease_expires_at > ${now}`;
};

/**
 * SQL: one batch option from the batch's settings JSON (`table` names the batches row, ADR 024), with
 * its default where the row predates the key, as `parseStoredSettings` reads it.
 */
export const batchOption = (key: "priority" | "maxConcurrent" | "pauseOnError", table = "batches"): SQL => {
  const fallback: SavedSettings[typeof key] = DEFAULT_SAVED_SETTINGS[key];
  const value = typeof fallback === "boolean" ? Number(fallback) : fallback;
  return sql`coalesce(json_extract(${sql.raw(table)}.settings_json, ${"$." + key}), ${value})`;
};

/**
 * Runs `items` as ONE atomic statement batch (BEGIN … COMMIT on one connection, one round trip
 * to sqld; ADR 017 says why not an interactive transaction). Answers each statement's result.
 */
export async function runBatch(db: Db, items: BatchItem<"sqlite">[]): Promise<unknown[]> {
  if (items.length === 0) return [];
  return await db.batch(items as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]) as unknown[];
}

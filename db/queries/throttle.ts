/**
 * Counted events for the sign-in and sign-up limits (ADR 019), shared by every instance on the
 * database. Keys are hashed here, on the way in, so the tables never hold an address or a
 * username as written. Each check-and-count is one conditional INSERT: the database runs write
 * statements one at a time, so concurrent requests on different instances cannot both take the
 * last slot.
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { knownAddresses, throttleEvents } from "../schema.ts";

const hashKey = (key: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(key)));

const countSince = (key: string, since: number) =>
  sql`(SELECT count(*) FROM throttle_events WHERE key = ${hashKey(key)} AND at > ${since})`;

/** When the `n`th newest event since `since` happened; NULL with fewer than `n`. */
const nthNewestSince = (key: string, since: number, n: number) =>
  sql`(SELECT at FROM throttle_events WHERE key = ${hashKey(key)} AND at > ${since}
       ORDER BY at DESC LIMIT 1 OFFSET ${n - 1})`;

/** Counts one event under each key, unconditionally. */
export async function recordEvents(db: Db, keys: string[], at: number): Promise<void> {
  await db.insert(throttleEvents).values(keys.map((key) => ({ key: hashKey(key), at })));
}

/** Counts one event under `key` only while it has fewer than `limit` since `since`: exact under concurrency. */
export async function recordEventBelow(
  db: Db,
  key: string,
  at: number,
  since: number,
  limit: number,
): Promise<boolean> {
  const rows = await db.all(sql`
    INSERT INTO throttle_events (key, at) SELECT ${hashKey(key)}, ${at}
    WHERE ${countSince(key, since)} < ${limit}
    RETURNING id`);
  return rows.length > 0;
}

/** The `n`th newest event under `key` since `since` (ms), or null when there are fewer. */
export async function nthNewestEvent(db: Db, key: string, since: number, n: number): Promise<number | null> {
  const row = await db.get<{ at: number | null }>(sql`SELECT ${nthNewestSince(key, since, n)} AS at`);
  return row?.at ?? null;
}

export interface SignInKeys {
  pair: string;
  ip: string;
  user: string;
  /** The (username, address) key of known_addresses. */
  known: string;
}

export interface SignInGate {
  now: number;
  /** Events after this count (the window's start). */
  since: number;
  /** A success after this makes the address known. */
  knownSince: number;
  perPair: number;
  firstWaitMs: number;
  maxWaitMs: number;
  perIp: number;
  perUsername: number;
}

/** What the sign-in policy reads, in one round trip. */
export interface SignInState {
  pairCount: number;
  pairLast: number | null;
  /** The perIp-th newest failure from the address (null below the cap), and likewise per username. */
  ipNth: number | null;
  userNth: number | null;
  knownAt: number | null;
}

export async function signInState(db: Db, keys: SignInKeys, gate: SignInGate): Promise<SignInState> {
  const pair = hashKey(keys.pair);
  const row = await db.get<SignInState>(sql`SELECT
    (SELECT count(*) FROM throttle_events WHERE key = ${pair} AND at > ${gate.since}) AS pairCount,
    (SELECT max(at) FROM throttle_events WHERE key = ${pair} AND at > ${gate.since}) AS pairLast,
    ${nthNewestSince(keys.ip, gate.since, gate.perIp)} AS ipNth,
    ${nthNewestSince(keys.user, gate.since, gate.perUsername)} AS userNth,
    (SELECT last_success_at FROM known_addresses WHERE key = ${hashKey(keys.known)}) AS knownAt`);
  return {
    pairCount: Number(row?.pairCount ?? 0),
    pairLast: row?.pairLast ?? null,
    ipNth: row?.ipNth ?? null,
    userNth: row?.userNth ?? null,
    knownAt: row?.knownAt ?? null,
  };
}

/**
 * Counts a sign-in attempt as a failure of its pair, address and username, in one statement that
 * admits it only when LoginThrottle.retryAfter would answer 0 (the same policy, in SQL): the pair
 * is under its count or its doubled wait since the last failure has passed, the address is under
 * its cap, and the username is under its cap or the address is known. Returns the rows' ids, to
 * take back if the attempt succeeds; none when refused.
 */
export async function claimSignInAttempt(db: Db, keys: SignInKeys, gate: SignInGate): Promise<number[]> {
  const pair = hashKey(keys.pair);
  // The shift is capped so it cannot overflow; 2^30 × any first wait is past any window.
  const pairOpen = sql`(SELECT CASE WHEN count(*) < ${gate.perPair} THEN 1
      ELSE max(at) + min(${gate.maxWaitMs}, ${gate.firstWaitMs} << min(count(*) - ${gate.perPair}, 30)) <= ${gate.now}
    END FROM throttle_events WHERE key = ${pair} AND at > ${gate.since})`;
  const known = sql`EXISTS (SELECT 1 FROM known_addresses
    WHERE key = ${hashKey(keys.known)} AND last_success_at > ${gate.knownSince})`;
  const rows = await db.all<{ id: number }>(sql`
    INSERT INTO throttle_events (key, at)
    SELECT k, ${gate.now} FROM (SELECT ${pair} AS k UNION ALL SELECT ${hashKey(keys.ip)} UNION ALL
                                SELECT ${hashKey(keys.user)})
    WHERE ${pairOpen}
      AND ${countSince(keys.ip, gate.since)} < ${gate.perIp}
      AND (${known} OR ${countSince(keys.user, gate.since)} < ${gate.perUsername})
    RETURNING id`);
  return rows.map((r) => Number(r.id));
}

/** A successful sign-in: the pair's failures and the attempt's own rows go; the address becomes known. */
export async function recordSignInSuccess(
  db: Db,
  keys: Pick<SignInKeys, "pair" | "known">,
  attemptIds: number[],
  at: number,
): Promise<void> {
  const known = hashKey(keys.known);
  await db.batch([
    db.delete(throttleEvents).where(eq(throttleEvents.key, hashKey(keys.pair))),
    db.delete(throttleEvents).where(inArray(throttleEvents.id, attemptIds.length > 0 ? attemptIds : [-1])),
    db.insert(knownAddresses).values({ key: known, lastSuccessAt: at })
      .onConflictDoUpdate({ target: knownAddresses.key, set: { lastSuccessAt: at } }),
  ]);
}

/** Deletes events at or before `eventsBefore` and known addresses last used at or before `knownBefore`. */
export async function pruneThrottleRows(db: Db, eventsBefore: number, knownBefore: number): Promise<number> {
  const [events, known] = await db.batch([
    db.delete(throttleEvents).where(lte(throttleEvents.at, eventsBefore)),
    db.delete(knownAddresses).where(lte(knownAddresses.lastSuccessAt, knownBefore)),
  ]);
  return events.rowsAffected + known.rowsAffected;
}

/**
 * Developer API keys (issue 23, ADR 025): made by a signed-in user, shown once, stored as the
 * SHA-256 of the whole key (like session tokens, services/sessions.ts), revocable at once.
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import {
  API_KEY_DISPLAY_LENGTH,
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  type ApiKey,
  type CreateApiKeyInput,
  type CreatedApiKey,
  MAX_API_KEYS_PER_ACCOUNT,
} from "../../contract/api-keys.ts";
import type { Db } from "../../db/client.ts";
import {
  countActiveApiKeys,
  creationTimesSince,
  deleteRevokedApiKeys,
  findApiKeyByHash,
  insertApiKeyWithin,
  listActiveApiKeys,
  revokeApiKey as revokeRow,
  touchApiKey,
} from "../../db/queries/api-keys.ts";
import type { ApiKeyRow, UserRow } from "../../db/schema.ts";
import { DomainError } from "../domain-error.ts";
import { settleSubscription } from "./billing/subscriptions.ts";

/** `last_used_at` is written at most this often per key: not a write per request. */
export const LAST_USED_EVERY_MS = 60_000;

/**
 * Keys one account may create per hour, revoked or not (ADR 028): a script that makes a key per
 * run and revokes it, or a person trying the Developers page, stays far under it; a session
 * making and revoking keys in a loop (943 in 10 s, issue 29) is stopped at 20.
 */
export const API_KEY_CREATIONS = { max: 20, windowMs: 3_600_000 } as const;

/**
 * A revoked key's row is deleted this long after its revocation (ADR 028): for a month a request
 * with it answers "revoked" (telling its owner why a forgotten script stopped), then "no such key".
 * With the creation limit, an account holds at most 10 active and about 14,400 revoked rows.
 */
export const REVOKED_KEY_RETENTION_MS = 30 * 24 * 3_600_000;

/** SHA-256 of the whole key, hex: what the database holds and looks keys up by. */
export const apiKeyHash = (key: string): string => encodeHexLowerCase(sha256(new TextEncoder().encode(key)));

const view = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** A new key for the user: 32 CSPRNG bytes in base32 after the prefix; the secret leaves here once. */
export async function createApiKey(db: Db, user: UserRow, input: CreateApiKeyInput, now = new Date()) {
  const key = API_KEY_PREFIX + encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  const row: ApiKeyRow = {
    id: crypto.randomUUID(),
    userId: user.id,
    name: input.name,
    keyHash: apiKeyHash(key),
    prefix: key.slice(0, API_KEY_DISPLAY_LENGTH),
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  };
  const since = new Date(now.getTime() - API_KEY_CREATIONS.windowMs);
  if (!await insertApiKeyWithin(db, row, MAX_API_KEYS_PER_ACCOUNT, { max: API_KEY_CREATIONS.max, since })) {
    throw await creationRefused(db, user.id, since, now);
  }
  const created: CreatedApiKey = {
    id: row.id,
    name: row.name,
    key,
    prefix: row.prefix,
    createdAt: view(row).createdAt,
  };
  return created;
}

/** Why a creation was refused: rate_limited past the hourly creations (revoking would not help), else a conflict (full). */
async function creationRefused(db: Db, userId: number, since: Date, now: Date): Promise<DomainError> {
  const recent = await creationTimesSince(db, userId, since);
  if (recent.length >= API_KEY_CREATIONS.max) {
    // The window holds fewer than the limit once its oldest surplus creations leave it.
    const frees = recent[recent.length - API_KEY_CREATIONS.max]!.getTime() + API_KEY_CREATIONS.windowMs;
    const seconds = Math.max(1, Math.ceil((frees - now.getTime()) / 1000));
    return new DomainError(
      "rate_limited",
      `You created ${API_KEY_CREATIONS.max} API keys in the last hour, the most an account may; ` +
        `try again in ${Math.ceil(seconds / 60)} min`,
      { retryAfterSeconds: seconds },
    );
  }
  if (await countActiveApiKeys(db, userId) >= MAX_API_KEYS_PER_ACCOUNT) {
    return new DomainError(
      "conflict",
      `You already have ${MAX_API_KEYS_PER_ACCOUNT} API keys, the most an account may hold; revoke one to create another`,
    );
  }
  // A parallel revocation or an hour's end freed room between the insert and these reads.
  return new DomainError("conflict", "Another change to your API keys came first; please try again");
}

/** Deletes revoked keys' rows once REVOKED_KEY_RETENTION_MS has passed since their revocation; how many. */
export function pruneRevokedApiKeys(db: Db, now = new Date()): Promise<number> {
  return deleteRevokedApiKeys(db, new Date(now.getTime() - REVOKED_KEY_RETENTION_MS));
}

export async function listApiKeys(db: Db, userId: number): Promise<ApiKey[]> {
  return (await listActiveApiKeys(db, userId)).map(view);
}

/** Revokes the user's key at once; another user's id (or one already revoked) is not_found. */
export async function revokeApiKey(db: Db, userId: number, id: string, now = new Date()): Promise<void> {
  if (!await revokeRow(db, userId, id, now)) throw new DomainError("not_found", "No such API key");
}

const MISSING = `Missing API key: send Authorization: Bearer ${API_KEY_PREFIX}…`;
const INVALID_TOKEN = 'Bearer error="invalid_token"';

/** A refused key or header, with the challenge that says how (the WWW-Authenticate header). */
const unauthenticated = (message: string, challenge: string) =>
  new DomainError("unauthenticated", message, { headers: { "WWW-Authenticate": challenge } });

/**
 * The key an `Authorization` header carries, or `unauthenticated` saying what is wrong with the
 * header (missing, not Bearer, or not shaped like a key), with its Bearer challenge (RFC 6750).
 */
export function bearerKey(header: string | undefined): string {
  if (!header) throw unauthenticated(MISSING, "Bearer");
  const match = header.match(/^Bearer[ ]+(\S+)\s*$/i);
  if (!match) {
    throw unauthenticated(
      `Malformed Authorization header: send Authorization: Bearer ${API_KEY_PREFIX}…`,
      'Bearer error="invalid_request"',
    );
  }
  const key = match[1]!;
  if (!API_KEY_PATTERN.test(key)) {
    throw unauthenticated(
      `Malformed API key: keys start with ${API_KEY_PREFIX} (create one on the Developers page)`,
      INVALID_TOKEN,
    );
  }
  return key;
}

export interface AuthenticatedKey {
  user: UserRow;
  key: ApiKeyRow;
}

/**
 * The account a key (by its hash) belongs to, with its plan settled as a session's would be;
 * `unauthenticated` for an unknown or revoked key. Records the use at most once a minute.
 */
export async function authenticateApiKey(db: Db, keyHash: string, now = new Date()): Promise<AuthenticatedKey> {
  const found = await findApiKeyByHash(db, keyHash);
  const invalid = (message: string) => unauthenticated(message, INVALID_TOKEN);
  if (!found) throw invalid("Invalid API key: no such key");
  if (found.key.revokedAt) throw invalid("This API key was revoked; create a new one on the Developers page");
  const since = new Date(now.getTime() - LAST_USED_EVERY_MS);
  if (!found.key.lastUsedAt || found.key.lastUsedAt < since) await touchApiKey(db, found.key.id, now, since);
  // An ended premium period switches the plan back here, as for a session.
  const user = await settleSubscription(db, found.user, now.getTime());
  return { user, key: found.key };
}

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
  findApiKeyByHash,
  insertApiKeyWithin,
  listActiveApiKeys,
  revokeApiKey as revokeRow,
  touchApiKey,
} from "../../db/queries/api-keys.ts";
import type { ApiKeyRow, UserRow } from "../../db/schema.ts";
import { ApiError } from "../http-error.ts";
import { settleSubscription } from "./billing/subscriptions.ts";

/** `last_used_at` is written at most this often per key: not a write per request. */
export const LAST_USED_EVERY_MS = 60_000;

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
  if (!await insertApiKeyWithin(db, row, MAX_API_KEYS_PER_ACCOUNT)) {
    throw new ApiError(
      409,
      `You already have ${MAX_API_KEYS_PER_ACCOUNT} API keys, the most an account may hold; revoke one to create another`,
    );
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

export async function listApiKeys(db: Db, userId: number): Promise<ApiKey[]> {
  return (await listActiveApiKeys(db, userId)).map(view);
}

/** Revokes the user's key at once; another user's id (or one already revoked) answers 404. */
export async function revokeApiKey(db: Db, userId: number, id: string, now = new Date()): Promise<void> {
  if (!await revokeRow(db, userId, id, now)) throw new ApiError(404, "No such API key");
}

const MISSING = `Missing API key: send Authorization: Bearer ${API_KEY_PREFIX}…`;

/**
 * The key an `Authorization` header carries, or a 401 saying what is wrong with the header:
 * missing, not Bearer, or not shaped like a key.
 */
export function bearerKey(header: string | undefined): string {
  if (!header) throw new ApiError(401, MISSING, { "WWW-Authenticate": "Bearer" });
  const match = header.match(/^Bearer[ ]+(\S+)\s*$/i);
  if (!match) {
    throw new ApiError(401, `Malformed Authorization header: send Authorization: Bearer ${API_KEY_PREFIX}…`, {
      "WWW-Authenticate": 'Bearer error="invalid_request"',
    });
  }
  const key = match[1]!;
  if (!API_KEY_PATTERN.test(key)) {
    throw new ApiError(
      401,
      `Malformed API key: keys start with ${API_KEY_PREFIX} (create one on the Developers page)`,
      {
        "WWW-Authenticate": 'Bearer error="invalid_token"',
      },
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
 * 401 for an unknown or revoked key. Records the use at most once a minute.
 */
export async function authenticateApiKey(db: Db, keyHash: string, now = new Date()): Promise<AuthenticatedKey> {
  const found = await findApiKeyByHash(db, keyHash);
  const invalid = (message: string) =>
    new ApiError(401, message, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
  if (!found) throw invalid("Invalid API key: no such key");
  if (found.key.revokedAt) throw invalid("This API key was revoked; create a new one on the Developers page");
  const since = new Date(now.getTime() - LAST_USED_EVERY_MS);
  if (!found.key.lastUsedAt || found.key.lastUsedAt < since) await touchApiKey(db, found.key.id, now, since);
  // An ended premium period switches the plan back here, as for a session.
  const user = await settleSubscription(db, found.user, now.getTime());
  return { user, key: found.key };
}

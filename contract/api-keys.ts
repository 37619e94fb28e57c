/**
 * The developer API (issue 23): API keys managed from a session, and the key-authenticated
 * `/api/v1` routes. The server validates with these schemas, the web app and the CLI use these
 * types and names, and the OpenAPI document is generated from them.
 */
import { z } from "zod";
import type { FormatChoiceReport } from "./formats.ts";

/** Every key starts with this, so a leaked one is recognisable (and greppable) as ours. */
export const API_KEY_PREFIX = "sq_live_";
/** How many characters of a key are kept in clear for display (the prefix and a few more). */
export const API_KEY_DISPLAY_LENGTH = API_KEY_PREFIX.length + 6;
export const MAX_API_KEYS_PER_ACCOUNT = 10;
/**
 * What a well-formed key looks like: the prefix and its secret (ours are 52 base32 characters;
 * any URL-safe run of 24 to 128 is taken as a key to look up, so the format may change).
 */
export const API_KEY_PATTERN = /^sq_live_[A-Za-z0-9_-]{24,128}$/;

/**
 * Per-key rate limit on `/api/v1` (ADR 025): a token bucket of `burst` requests, refilled at
 * `perSecond`; checked before anything else a request costs (429 + Retry-After).
 */
export const API_RATE_LIMIT = { burst: 20, perSecond: 5 } as const;

/**
 * An account with this many API jobs unfinished (pending or processing) gets 503 + Retry-After
 * for new ones until some end (ADR 025): the queue stays open to the web app and other accounts.
 */
export const MAX_API_JOBS_IN_FLIGHT = 20;

/** The session-authenticated key management routes. */
export const API_KEYS_PATHS = {
  list: "/api/keys",
  one: (id: string) => `/api/keys/${encodeURIComponent(id)}`,
} as const;

/**
 * Characters a key's name may not hold (issue 29): C0 and C1 controls and DEL (a NUL cut the stored
 * name short of the one echoed), and the bidirectional formatting characters (embeddings, overrides,
 * isolates, marks), which can make a name on the Developers page read as another.
 */
// deno-lint-ignore no-control-regex
export const KEY_NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** POST /api/keys: the name is stored exactly as accepted (after trimming). */
export const createApiKeySchema = z.object({
  name: z.string({ error: "name must be text" }).trim().min(1, "name: give the key a name")
    .max(60, "name must be at most 60 characters")
    .refine(
      (name) => !KEY_NAME_FORBIDDEN.test(name),
      "name must not contain control or bidirectional formatting characters",
    )
    // A lone surrogate cannot be stored as UTF-8: it would come back changed.
    .refine((name) => name.isWellFormed(), "name must be well-formed Unicode text"),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

/** A key as listed: never its secret. */
export interface ApiKey {
  id: string;
  name: string;
  /** The first characters of the key, e.g. `sq_live_a1b2c3`. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** POST /api/keys answers the secret `key` once; it is stored hashed and never shown again. */
export interface CreatedApiKey {
  id: string;
  name: string;
  key: string;
  prefix: string;
  createdAt: string;
}

export interface ApiKeyList {
  keys: ApiKey[];
}

/** The `/api/v1` paths (relative to the server's origin). */
export const V1 = {
  compress: "/api/v1/compress",
  /** A `.jxl` made from a JPEG in, that JPEG out, byte for byte (issue 32). */
  restore: "/api/v1/restore",
  job: (id: string) => `/api/v1/jobs/${encodeURIComponent(id)}`,
  result: (id: string) => `/api/v1/jobs/${encodeURIComponent(id)}/result`,
  openapi: "/api/v1/openapi.json",
} as const;

/** Response headers of a synchronous `POST /api/v1/compress`. */
export const V1_HEADERS = {
  /** Compressions the account used today (UTC), this one included: the web app's and the API's together. */
  count: "Compression-Count",
  width: "Image-Width",
  height: "Image-Height",
  originalSize: "Original-Size",
  compressedSize: "Compressed-Size",
  /** The result's SSIMULACRA 2 score against the original, when measured before the answer. */
  score: "Ssimulacra2-Score",
  /** The job's id: `GET /api/v1/jobs/:id` describes it. */
  jobId: "Job-Id",
  /** format=auto: `avif; against=jpeg; against-bytes=123456; measured=true` (`formatChoiceHeader`). */
  formatChoice: "Format-Choice",
} as const;

/**
 * Query parameters of `POST /api/v1/compress` besides the settings (every key of
 * `SavedSettings`, contract/settings.ts): `async=true` answers 202 at once. Any other is a 400.
 */
export const V1_ASYNC_PARAM = "async";

/** `POST /api/v1/compress?async=true` answers 202 with the job's id. */
export interface V1Accepted {
  id: string;
}

/** format=auto's report as the `Format-Choice` header: the format written, then the best other one's bytes. */
export function formatChoiceHeader(r: FormatChoiceReport): string {
  if (!r.against || r.againstBytes === null) return r.format;
  return `${r.format}; against=${r.against}; against-bytes=${r.againstBytes}; measured=${r.measured}`;
}

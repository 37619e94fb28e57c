/**
 * `GET /api/v1/openapi.json`: the developer API described as OpenAPI 3.1, generated from the zod
 * schemas that validate the requests (the settings, the key's name) and describe the answers
 * (contract/api-schemas.ts), and from the contract's names (paths, headers, limits), so it
 * cannot drift from what the server does.
 */
import { z } from "zod";
import {
  API_KEY_PREFIX,
  API_KEYS_PATHS,
  API_RATE_LIMIT,
  createApiKeySchema,
  MAX_API_JOBS_IN_FLIGHT,
  MAX_API_KEYS_PER_ACCOUNT,
  V1,
  V1_ASYNC_PARAM,
  V1_HEADERS,
} from "../../contract/api-keys.ts";
import {
  apiKeyListSchema,
  createdApiKeySchema,
  errorSchema,
  jobSchema,
  v1AcceptedSchema,
} from "../../contract/api-schemas.ts";
import { PLANS } from "../../contract/plans.ts";
import { FORMATS, OUTPUT_FORMATS } from "../../contract/formats.ts";
import {
  DEFAULT_SAVED_SETTINGS,
  type SavedSettings,
  savedSettingsSchema,
  SETTING_DESCRIPTIONS,
  TARGET_KB_RANGE,
  TARGET_SCORE_RANGE,
  targetSchema,
} from "../../contract/settings.ts";
import { SESSION_COOKIE } from "./sessions.ts";

type Json = Record<string, unknown>;

/** A zod schema as a JSON Schema object inside the document (no `$schema` of its own). */
function jsonSchema(schema: z.ZodType, io: "input" | "output" = "output"): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io }) as Json;
  return rest;
}

/** The query parameters of POST /api/v1/compress: every setting, by the web form's names and rules. */
function settingParameters(): Json[] {
  const shape = savedSettingsSchema.shape as Record<keyof SavedSettings, z.ZodType>;
  return (Object.keys(shape) as (keyof SavedSettings)[]).map((name) => {
    const target = name === "target";
    const schema = target
      ? targetParameterSchema()
      : { ...jsonSchema(shape[name]), default: DEFAULT_SAVED_SETTINGS[name] };
    return { name, in: "query", required: false, description: SETTING_DESCRIPTIONS[name], schema };
  });
}

/** `target` as text: a short form or the JSON the web form sends. */
function targetParameterSchema(): Json {
  const kb = `${TARGET_KB_RANGE.min}-${TARGET_KB_RANGE.max}`;
  const score = `${TARGET_SCORE_RANGE.min}-${TARGET_SCORE_RANGE.max}`;
  return {
    type: "string",
    description: `auto (the smallest file scoring ≥ 80), size:KB (${kb}), score:S (SSIMULACRA 2, ${score}), or JSON`,
    anyOf: [
      { const: "auto" },
      { pattern: "^size:[0-9]+$" },
      { pattern: "^score:[0-9]+(\\.[0-9]+)?$" },
      { contentMediaType: "application/json", contentSchema: jsonSchema(targetSchema) },
    ],
    examples: ["auto", "size:200", "score:85", '{"kind":"size","kb":200}'],
  };
}

const integerHeader = (description: string): Json => ({ description, schema: { type: "integer" } });

const RESULT_HEADERS: Json = {
  [V1_HEADERS.count]: integerHeader(
    "Compressions the account used today (UTC), this one included, web and API together",
  ),
  [V1_HEADERS.width]: integerHeader("The output's width in pixels"),
  [V1_HEADERS.height]: integerHeader("The output's height in pixels"),
  [V1_HEADERS.originalSize]: integerHeader("The input's size in bytes"),
  [V1_HEADERS.compressedSize]: integerHeader("The output's size in bytes"),
  [V1_HEADERS.score]: {
    description: "The output's SSIMULACRA 2 score against the input, when known at answer time " +
      "(a fixed-quality job's score is measured after: see GET /api/v1/jobs/{id})",
    required: false,
    schema: { type: "number" },
  },
  [V1_HEADERS.jobId]: { description: "The job's id", schema: { type: "string" } },
  [V1_HEADERS.formatChoice]: {
    description: "format=auto: the format written and the best other allowed one's bytes at the same score, " +
      "e.g. `avif; against=jpeg; against-bytes=123456; measured=true` (measured=false: predicted from a sample)",
    required: false,
    schema: { type: "string" },
  },
};

const retryAfter: Json = { "Retry-After": integerHeader("Seconds to wait before trying again") };

const error = (description: string, headers?: Json): Json => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const json = (description: string, ref: string, headers?: Json): Json => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});

const binary = (type: string): Json => ({ schema: { type: "string", contentMediaType: type } });

/** A result is any output format's media type (contract/formats.ts), or a web set's ZIP (`widths`). */
const RESULT_CONTENT: Json = {
  ...Object.fromEntries(OUTPUT_FORMATS.map((f) => [FORMATS[f].mimeType, binary(FORMATS[f].mimeType)])),
  "application/zip": binary("application/zip"),
};

/** What every key-authenticated route may answer besides its own. */
const KEY_ERRORS: Json = {
  "401": error("Missing, malformed, unknown or revoked API key"),
  "429": error(
    `Over the key's rate limit (a burst of ${API_RATE_LIMIT.burst}, then ${API_RATE_LIMIT.perSecond} a second), ` +
      "or too many unknown or revoked keys from this address",
    retryAfter,
  ),
  "503": error("The server is refusing a flood of unknown API keys", retryAfter),
};

/** A path of the contract's with `{id}` in OpenAPI's template form (the contract encodes what it is given). */
const templated = (path: (id: string) => string) => path("ID").replace("ID", "{id}");

const idParameter = (what: string): Json => ({
  name: "id",
  in: "path",
  required: true,
  description: what,
  schema: { type: "string" },
});

function buildDocument(): Json {
  const free = PLANS.free;
  const premium = PLANS.premium;
  const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;
  return {
    openapi: "3.1.0",
    info: {
      title: "SqueezeJPEG developer API",
      version: "1",
      description: [
        `Compress JPEGs with an API key (\`Authorization: Bearer ${API_KEY_PREFIX}…\`), made on the Developers page.`,
        "Usage, limits, priority and retention are the account's, shared with the web app:",
        `Free ${free.dailyCompressions} compressions a UTC day, ${mb(free.maxFileBytes)} and ${
          free.maxPixels / 1e6
        } MP per image;`,
        `Premium unlimited, ${mb(premium.maxFileBytes)} and ${premium.maxPixels / 1e6} MP, targets.`,
        `Each key: a burst of ${API_RATE_LIMIT.burst} requests, then ${API_RATE_LIMIT.perSecond} a second.`,
        `An account with ${MAX_API_JOBS_IN_FLIGHT} API jobs unfinished gets 503 until some end.`,
        'Errors are JSON `{ "error": "…" }`.',
      ].join(" "),
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: `An API key: ${API_KEY_PREFIX}…` },
        session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "The web app's session" },
      },
      schemas: {
        Error: jsonSchema(errorSchema),
        Job: jsonSchema(jobSchema),
        Accepted: jsonSchema(v1AcceptedSchema),
        CreateApiKey: jsonSchema(createApiKeySchema, "input"),
        CreatedApiKey: jsonSchema(createdApiKeySchema),
        ApiKeyList: jsonSchema(apiKeyListSchema),
      },
    },
    paths: {
      [V1.compress]: {
        post: {
          summary: "Compress one JPEG",
          description: "The body is the JPEG's bytes (judged by its bytes, not its Content-Type), or multipart " +
            "with exactly one file. Settings are query parameters, by the web form's names and rules; an unknown " +
            "parameter is a 400. Waits for the result unless async=true.",
          security: [{ bearer: [] }],
          parameters: [
            ...settingParameters(),
            {
              name: V1_ASYNC_PARAM,
              in: "query",
              required: false,
              description: "true: answer 202 with the job's id at once",
              schema: { type: "boolean", default: false },
            },
          ],
          requestBody: {
            required: true,
            content: {
              "image/jpeg": binary("image/jpeg"),
              "multipart/form-data": {
                schema: { type: "object", properties: { image: { type: "string", contentMediaType: "image/jpeg" } } },
              },
            },
          },
          responses: {
            "200": {
              description: "The compressed image",
              headers: RESULT_HEADERS,
              content: RESULT_CONTENT,
            },
            "202": json("Accepted (async=true): the job's id", "Accepted", {
              Location: { description: "GET it for the job", schema: { type: "string" } },
              [V1_HEADERS.jobId]: RESULT_HEADERS[V1_HEADERS.jobId],
              [V1_HEADERS.count]: RESULT_HEADERS[V1_HEADERS.count],
            }),
            "400": error("A bad setting (named), an unknown query parameter, or a malformed body"),
            ...KEY_ERRORS,
            "403": error("target on the free plan (a Premium feature)"),
            "408": error("The body stopped arriving, or took longer than the plan's deadline"),
            "409": error("The job was cancelled before it finished"),
            "410": error("The job was deleted before it finished"),
            "413": error("Over the plan's bytes per file or pixels per image"),
            "415": error("Not a JPEG by its bytes"),
            "422": error("The image could not be compressed (corrupt, truncated): the job's message"),
            "429": error(
              "Over the daily limit (Retry-After: until UTC midnight), the key's rate limit, or this address's " +
                "lookups of unknown keys",
              retryAfter,
            ),
            "503": error(
              `Saturated: the server's store is full, it is restarting, it is refusing a flood of unknown API keys, ` +
                `or the account has ${MAX_API_JOBS_IN_FLIGHT} API jobs unfinished, or a restart lost the job`,
              retryAfter,
            ),
            "500": error("The job failed on our side, unexpectedly: the job's message"),
            "504": error("The image took longer to process than a job may: the job's message"),
          },
        },
      },
      [templated(V1.job)]: {
        get: {
          summary: "A job: its status, sizes, scores",
          security: [{ bearer: [] }],
          parameters: [idParameter("The job's id")],
          responses: {
            "200": json("The job, as GET /api/jobs lists it", "Job"),
            ...KEY_ERRORS,
            "404": error("No such job for this account"),
          },
        },
      },
      [templated(V1.result)]: {
        get: {
          summary: "A completed job's bytes",
          security: [{ bearer: [] }],
          parameters: [idParameter("The job's id")],
          responses: {
            "200": {
              description: "The result",
              headers: { [V1_HEADERS.jobId]: RESULT_HEADERS[V1_HEADERS.jobId] },
              content: RESULT_CONTENT,
            },
            ...KEY_ERRORS,
            "404": error("No such job for this account"),
            "409": error("Not completed yet"),
            "410": error("Expired: the bytes were deleted"),
          },
        },
      },
      [V1.restore]: {
        post: {
          summary: "A JPEG XL file made from a JPEG in, that JPEG out, byte for byte",
          description:
            "Takes any .jxl holding JPEG reconstruction data (format=jxl, archive=true, or libjxl's cjxl). " +
            "Not a compression: no quota, no job.",
          security: [{ bearer: [] }],
          requestBody: { required: true, content: { "image/jxl": { schema: { type: "string", format: "binary" } } } },
          responses: {
            "200": {
              description: "The original JPEG",
              headers: {
                [V1_HEADERS.originalSize]: integerHeader("The .jxl's size in bytes"),
                [V1_HEADERS.compressedSize]: integerHeader("The JPEG's size in bytes"),
              },
              content: { "image/jpeg": { schema: { type: "string", format: "binary" } } },
            },
            ...KEY_ERRORS,
            "413": error("Larger than the plan's per-file limit"),
            "415": error("Not a JPEG XL file, or one without JPEG reconstruction data (made from pixels)"),
            "422": error("A damaged or truncated JPEG XL file"),
          },
        },
      },
      [V1.openapi]: {
        get: { summary: "This document", security: [], responses: { "200": { description: "OpenAPI 3.1" } } },
      },
      [API_KEYS_PATHS.list]: {
        get: {
          summary: "The signed-in user's API keys (never their secrets)",
          security: [{ session: [] }],
          responses: { "200": json("The keys", "ApiKeyList"), "401": error("Not signed in") },
        },
        post: {
          summary: "Create an API key",
          description: "The secret is in this answer only; it is stored hashed.",
          security: [{ session: [] }],
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/CreateApiKey" } } },
          },
          responses: {
            "201": json("The key, with its secret", "CreatedApiKey"),
            "400": error("A bad name"),
            "401": error("Not signed in"),
            "403": error("A state-changing request from another site"),
            "409": error(`Already ${MAX_API_KEYS_PER_ACCOUNT} keys`),
          },
        },
      },
      [templated(API_KEYS_PATHS.one)]: {
        delete: {
          summary: "Revoke an API key, at once",
          security: [{ session: [] }],
          parameters: [idParameter("The key's id")],
          responses: {
            "204": { description: "Revoked" },
            "401": error("Not signed in"),
            "404": error("No such key for this account"),
          },
        },
      },
    },
  };
}

let cached: Json | undefined;

/** The document (built once: it depends only on the contract). */
export function openApiDocument(): Json {
  return cached ??= buildDocument();
}

/**
 * Zod schemas of the developer API's answers, for the OpenAPI document
 * (server/services/openapi.ts). The TypeScript interfaces (contract/jobs.ts, contract/api-keys.ts)
 * stay the source the code uses; each schema here is checked against its interface at type-check
 * time (`deno check` fails when one changes without the other), so the document cannot drift.
 */
import { z } from "zod";
import type { ApiKey, ApiKeyList, CreatedApiKey, V1Accepted } from "./api-keys.ts";
import { type Job, JOB_STATUSES, type MetadataReport, type QualityScores } from "./jobs.ts";
import { CODEC_IDS, compressSettingsSchema, OUTPUT_FORMATS } from "./settings.ts";
import type { WebSet } from "./web-sets.ts";
import { FORMAT_CHOICES, type FormatChoiceReport } from "./formats.ts";

const isoTime = z.string().describe("ISO 8601 time");

export const errorSchema = z.object({ error: z.string().describe("What went wrong, in a sentence") });

export const qualityScoresSchema = z.object({
  ssimulacra2: z.number().describe("SSIMULACRA 2.1 as the metric gives it (100 identical; can be negative)"),
  score: z.number().describe("SSIMULACRA 2 clamped to 0-100 (90 visually lossless, 80 not noticeable at 1:1)"),
  sharpness: z.number(),
  colorAccuracy: z.number(),
  artifacts: z.number(),
  overall: z.number(),
});

export const metadataReportSchema = z.object({
  found: z.array(z.string()),
  kept: z.array(z.string()),
  removed: z.array(z.string()),
  orientation: z.number().int().describe("The input's EXIF orientation (1-8), applied to the pixels"),
});

export const webSetSchema = z.object({
  name: z.string().describe("The photo's base name: the ZIP's folder and each file's prefix"),
  files: z.array(z.object({
    file: z.string().describe("e.g. beach-1280.avif"),
    format: z.enum(OUTPUT_FORMATS),
    width: z.number().int(),
    height: z.number().int(),
    bytes: z.number().int(),
    score: z.number().describe("SSIMULACRA 2 against the original resized to this width"),
  })),
});

export const formatChoiceSchema = z.object({
  format: z.enum(OUTPUT_FORMATS),
  against: z.enum(OUTPUT_FORMATS).nullable(),
  againstBytes: z.number().int().nullable(),
  measured: z.boolean().describe("againstBytes was encoded at full size (else predicted from a sample)"),
});

export const jobSchema = z.object({
  id: z.string(),
  batchId: z.string(),
  filename: z.string(),
  status: z.enum(JOB_STATUSES),
  progress: z.number().int().min(0).max(100),
  originalSize: z.number().int(),
  compressedSize: z.number().int().nullable(),
  quality: z.number().int(),
  format: z.enum(FORMAT_CHOICES).describe("The result's format; auto until format=auto has chosen"),
  encoder: z.enum(CODEC_IDS).nullable().describe(
    "The encoder that made the bytes; null until completed or for a kept original",
  ),
  settings: compressSettingsSchema,
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  errorMessage: z.string().nullable(),
  keptOriginal: z.boolean(),
  note: z.string().nullable(),
  scores: qualityScoresSchema.nullable(),
  scorePending: z.boolean().describe("Completed, its score still being measured (it arrives in scores)"),
  metadata: metadataReportSchema.nullable(),
  webSet: webSetSchema.nullable().describe("A web set's files; its result is their ZIP. Null for one output"),
  heldSize: z.number().int().nullable().describe(
    "JPEG XL: the size of the JPEG it holds and gives back byte for byte (POST /api/v1/restore). Null otherwise",
  ),
  formatChoice: formatChoiceSchema.nullable().describe(
    "format=auto: the format written and the best other allowed one's bytes (measured, or predicted). Null otherwise",
  ),
  createdAt: isoTime,
  completedAt: isoTime.nullable(),
  expiresAt: isoTime.nullable().describe("When the bytes are deleted"),
  expired: z.boolean().describe("True once the bytes are gone: the result answers 410"),
  sourceJobId: z.string().nullable(),
});

export const v1AcceptedSchema = z.object({ id: z.string().describe("The job's id: GET /api/v1/jobs/{id}") });

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe("The key's first characters, e.g. sq_live_a1b2c3"),
  createdAt: isoTime,
  lastUsedAt: isoTime.nullable().describe("Recorded at most once a minute"),
});

export const createdApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string().describe("The secret: shown in this answer only, stored hashed"),
  prefix: z.string(),
  createdAt: isoTime,
});

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });

// ---- each schema matches its interface exactly (a type error here means one changed alone)

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const matches = <A, B>(ok: Same<A, B>) => ok;
matches<z.infer<typeof jobSchema>, Job>(true);
matches<z.infer<typeof webSetSchema>, WebSet>(true);
matches<z.infer<typeof formatChoiceSchema>, FormatChoiceReport>(true);
matches<z.infer<typeof qualityScoresSchema>, QualityScores>(true);
matches<z.infer<typeof metadataReportSchema>, MetadataReport>(true);
matches<z.infer<typeof v1AcceptedSchema>, V1Accepted>(true);
matches<z.infer<typeof apiKeySchema>, ApiKey>(true);
matches<z.infer<typeof createdApiKeySchema>, CreatedApiKey>(true);
matches<z.infer<typeof apiKeyListSchema>, ApiKeyList>(true);

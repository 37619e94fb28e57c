import { z } from "zod";
import { AD_SLOTS_PATTERN } from "../contract/ads.ts";
import { DEFAULT_RESULT_TTL_SECONDS } from "../contract/storage.ts";
import { parseStoreUrl, StoreUrlError } from "./store/from-url.ts";
import { LOG_LEVELS } from "./log.ts";

const intFrom = (min: number, fallback: number) => z.coerce.number().int().min(min).default(fallback);

const envSchema = z.object({
  PORT: intFrom(0, 8000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z.string().regex(
    /^(file:|:memory:$|libsql:\/\/|https?:\/\/|wss?:\/\/)/,
    "must be file:, :memory:, libsql://, http(s):// or ws(s)://",
  ).default("file:data/app.db"),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  /** Codec workers; 0 serves HTTP only (jobs run on instances with workers, sharing the database). */
  WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  /** Run the codec on the server's thread, one job at a time (taken anyway where Web Workers are missing). */
  CODEC_IN_PROCESS: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  /** The least severe log entries written (server/log.ts); debug adds a line per job run. */
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  /** How long a job's lease holds without renewal (ADR 018); another instance takes the job after it. */
  JOB_LEASE_MS: intFrom(1000, 30_000),
  /** How often an instance looks for queued jobs in the shared database (ADR 018). */
  QUEUE_POLL_MS: intFrom(50, 300),
  JOB_TIMEOUT_MS: intFrom(1000, 60_000),
  RESULT_TTL_SECONDS: intFrom(1, DEFAULT_RESULT_TTL_SECONDS),
  MAX_STORE_BYTES: intFrom(1, 1024 ** 3),
  /** Where originals, results and thumbnails live: memory:, file:DIR or s3://BUCKET?endpoint=URL&region=R. */
  STORE_URL: z.string().default("memory:"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_PRICE_ID: z.string().optional(),
  ADSENSE_CLIENT: z.string().regex(/^ca-pub-\d{6,20}$/, "must look like ca-pub-1234567890").optional(),
  ADSENSE_SLOTS: z.string().regex(AD_SLOTS_PATTERN, "must look like landing=1234567890,sidebar=2345678901").optional(),
  PUBLIC_URL: z.url().optional(),
  LOG_REQUESTS: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
  /** Run local test billing even under an https PUBLIC_URL (a staging site without Stripe). */
  LOCAL_TEST_BILLING: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  REGISTRATIONS_PER_HOUR: intFrom(1, 10),
});

export type Env = z.infer<typeof envSchema>;

/** Raised at start when the environment is invalid; lists every bad key. */
export class EnvError extends Error {}

/** Parses the environment once; unset and empty values take their defaults. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ""),
  );
  const result = envSchema.safeParse(cleaned);
  const lines = result.success ? [] : result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
  lines.push(...storeUrlProblems(cleaned).map((p) => `  STORE_URL: ${p}`));
  if (!result.success || lines.length) throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  const env = result.data;
  const stripe = [env.STRIPE_SECRET_KEY, env.STRIPE_WEBHOOK_SECRET, env.STRIPE_PRICE_ID];
  if (stripe.some(Boolean) && !stripe.every(Boolean)) {
    throw new EnvError(
      "Invalid environment:\n  STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID: set all three or none",
    );
  }
  // Billing fails closed: a public https site without Stripe keys would hand out Premium for a click.
  const publicHttps = env.PUBLIC_URL?.startsWith("https:") ?? false;
  if (publicHttps && !stripe.some(Boolean) && !env.LOCAL_TEST_BILLING) {
    throw new EnvError(
      "Invalid environment:\n  STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID: required when PUBLIC_URL is https " +
        "(or set LOCAL_TEST_BILLING=true to run local test billing there on purpose)",
    );
  }
  if (env.LOCAL_TEST_BILLING && stripe.some(Boolean)) {
    throw new EnvError("Invalid environment:\n  LOCAL_TEST_BILLING: cannot be true while Stripe keys are set");
  }
  return env;
}

/** STORE_URL checked with the S3 keys it may need (server/store/from-url.ts says how). */
function storeUrlProblems(source: Record<string, string | undefined>): string[] {
  try {
    parseStoreUrl(source.STORE_URL, source);
    return [];
  } catch (err) {
    if (err instanceof StoreUrlError) return err.problems;
    throw err;
  }
}

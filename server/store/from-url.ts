import { FileStore } from "./file.ts";
import { MemoryStore, type MemoryStoreOptions } from "./memory.ts";
import { S3Store, type S3StoreOptions } from "./s3.ts";
import type { ByteStore } from "./types.ts";

/** What STORE_URL names, checked. */
export type StoreConfig =
  | { kind: "memory" }
  | { kind: "file"; dir: string }
  | ({ kind: "s3" } & S3StoreOptions);

/** The credentials STORE_URL's s3 form reads from the environment. */
export interface StoreEnv {
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
}

/** STORE_URL is malformed; `problems` lists every reason, and the message says them all. */
export class StoreUrlError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid STORE_URL: ${problems.join("; ")}`);
    this.name = "StoreUrlError";
  }
}

export const STORE_URL_FORMS = "memory:, file:DIR or s3://BUCKET?endpoint=URL&region=R";

// S3's bucket naming rules (lowercase; no uppercase or underscores, as path-style and DNS need).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_PARAMS = new Set(["endpoint", "region"]);

/**
 * Parses STORE_URL: `memory:` (the default when unset), `file:DIR` (relative to the working
 * directory, or `file:///abs`), `s3://BUCKET?endpoint=URL&region=R` with S3_ACCESS_KEY_ID and
 * S3_SECRET_ACCESS_KEY. Throws a StoreUrlError listing everything that is wrong.
 */
export function parseStoreUrl(url: string | undefined, env: StoreEnv = {}): StoreConfig {
  const value = url?.trim() || "memory:";
  if (value === "memory:") return { kind: "memory" };
  if (value.startsWith("file:")) {
    const dir = value.startsWith("file://") ? safePathname(value) : value.slice("file:".length);
    if (!dir) throw new StoreUrlError([`file: needs a folder, e.g. file:data/store (got ${JSON.stringify(value)})`]);
    return { kind: "file", dir };
  }
  if (value.startsWith("s3://")) return parseS3(value, env);
  throw new StoreUrlError([`must be ${STORE_URL_FORMS} (got ${JSON.stringify(value)})`]);
}

function parseS3(value: string, env: StoreEnv): StoreConfig {
  const problems: string[] = [];
  const rawBucket = value.slice("s3://".length).split(/[/?#]/, 1)[0] ?? "";
  let parsed: URL | null = null;
  try {
    parsed = new URL(value);
  } catch {
    problems.push(`cannot be parsed as a URL (${JSON.stringify(value)})`);
  }
  if (!BUCKET.test(rawBucket)) {
    problems.push(
      `bucket ${JSON.stringify(rawBucket)} must be 3-63 lowercase letters, digits, dots or hyphens (s3://BUCKET?...)`,
    );
  }
  let endpoint: string | undefined;
  let region = "us-east-1";
  if (parsed) {
    if (parsed.pathname !== "" && parsed.pathname !== "/") {
      problems.push(`a path after the bucket is not supported (${JSON.stringify(parsed.pathname)})`);
    }
    if (parsed.username || parsed.password) {
      problems.push("credentials do not go in the URL: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY");
    }
    if (parsed.port) problems.push("a port goes in endpoint=, not after the bucket");
    for (const name of parsed.searchParams.keys()) {
      if (!S3_PARAMS.has(name)) problems.push(`unknown parameter ${JSON.stringify(name)} (known: endpoint, region)`);
    }
    const rawEndpoint = parsed.searchParams.get("endpoint");
    if (rawEndpoint !== null) {
      try {
        const e = new URL(rawEndpoint);
        if (e.protocol !== "http:" && e.protocol !== "https:") throw new Error();
        if (e.search || e.hash) problems.push("endpoint must have no query or fragment");
        endpoint = rawEndpoint.replace(/\/+$/, "");
      } catch {
        problems.push(`endpoint must be an http(s) URL (got ${JSON.stringify(rawEndpoint)})`);
      }
    }
    const rawRegion = parsed.searchParams.get("region");
    if (rawRegion !== null) {
      if (/^[a-z0-9-]{1,32}$/.test(rawRegion)) region = rawRegion;
      else problems.push(`region must look like us-east-1 or auto (got ${JSON.stringify(rawRegion)})`);
    }
  }
  const missing = (["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter((k) => !env[k]);
  if (missing.length) problems.push(`an s3:// store needs ${missing.join(" and ")} set`);
  if (problems.length) throw new StoreUrlError(problems);
  return {
    kind: "s3",
    bucket: rawBucket,
    endpoint,
    region,
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
  };
}

function safePathname(value: string): string {
  try {
    const url = new URL(value);
    if (url.host) return "";
    return decodeURIComponent(url.pathname);
  } catch {
    return "";
  }
}

/** Opens the store STORE_URL names (nothing is contacted yet: call `check()` at start). */
export function openStore(
  url: string | undefined,
  env: StoreEnv = {},
  memory: MemoryStoreOptions = {},
): ByteStore {
  const config = parseStoreUrl(url, env);
  switch (config.kind) {
    case "memory":
      return new MemoryStore(memory);
    case "file":
      return new FileStore(config.dir);
    case "s3": {
      const { kind: _, ...options } = config;
      return new S3Store(options);
    }
  }
}

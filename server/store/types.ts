/**
 * The byte store: originals, results and thumbnails of jobs behind one async interface
 * (DESIGN §8, STORE_URL). Backends: memory (one process), file (one machine), S3-compatible
 * object storage (many instances, Deno Deploy). See docs/decisions/014-byte-store-backends.md.
 *
 * The store keeps bytes and the facts about them; it enforces no retention time and no cap of
 * its own: the app decides what to delete and when (from the database, and `sweepStoredBefore`
 * over `list()` for strays), and checks room with a `ByteBudget` (budget.ts) before it stores.
 */
import type { StoreKind } from "../../contract/storage.ts";

/** What `put` accepts. A stream needs its size up front (`PutOptions.size`). */
export type StoreBody = Uint8Array | Blob | ReadableStream<Uint8Array>;

export interface PutOptions {
  /** Stored with the bytes and given back by `get` (e.g. `image/jpeg`). */
  contentType: string;
  /**
   * Byte length of the body. Required for a ReadableStream; checked against what the stream
   * delivered (a short or long stream is refused and nothing is stored).
   */
  size?: number;
}

/** One stored object, as `list` and `head` describe it. */
export interface StoredObject {
  key: string;
  size: number;
  /** When these bytes were stored (the last `put` of the key). S3 keeps it to the second. */
  storedAt: Date;
}

/** What `head` answers: the listing facts plus the content type. */
export interface StoredObjectInfo extends StoredObject {
  contentType: string;
}

/** What `get` answers: a body to stream once, with the facts a response needs. */
export interface StoredBody extends StoredObjectInfo {
  /** Read it to the end or cancel it; backends hold a file or connection until then. */
  body: ReadableStream<Uint8Array>;
}

export interface ByteStore {
  /** `memory`, `file` or `s3`: what the privacy page and logs say about where bytes live. */
  readonly kind: StoreKind;
  /** Human-readable location without secrets, e.g. `file:/var/lib/squeeze` or `s3://bucket (endpoint)`. */
  readonly description: string;
  /** Stores the body under `key`, replacing what was there; the old bytes stay readable until then. */
  put(key: string, body: StoreBody, options: PutOptions): Promise<StoredObjectInfo>;
  /** The object as a stream, or null when the key holds nothing. */
  get(key: string): Promise<StoredBody | null>;
  /** The object's facts without its bytes, or null. */
  head(key: string): Promise<StoredObjectInfo | null>;
  /** Removes one key; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every key starting with `prefix` (e.g. `jobs/<id>/`); answers how many were removed. */
  deletePrefix(prefix: string): Promise<number>;
  /** Every key starting with `prefix`, in no promised order, with its size and stored-at time. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** Fails with the reason when the store cannot be used (folder not writable, bucket or keys wrong): run at start. */
  check(): Promise<void>;
  /** Frees what the backend holds (nothing for most). */
  close(): Promise<void>;
}

/** Defined with what the site says about each kind (contract/storage.ts). */
export type { StoreKind } from "../../contract/storage.ts";

/** A backend failed in a way the caller cannot fix by retrying with other input (bad credentials, no bucket). */
export class StoreError extends Error {
  constructor(message: string, readonly status?: number, options?: ErrorOptions) {
    super(message, options);
    this.name = "StoreError";
  }
}

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/**
 * Keys are `/`-separated segments of letters, digits, `_`, `-` and `.`, not starting with a dot
 * (no `..`, no hidden files: the file backend's temporary names start with one). Throws otherwise.
 */
export function assertKey(key: string): void {
  if (key.length === 0 || key.length > 512 || !key.split("/").every((s) => SEGMENT.test(s))) {
    throw new TypeError(`Invalid store key ${JSON.stringify(key)}: use /-separated [A-Za-z0-9._-] segments`);
  }
}

/** A prefix is a key's beginning: empty, or segments as in keys, optionally ending with `/`. */
export function assertPrefix(prefix: string): void {
  if (prefix === "") return;
  const body = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix;
  if (!body.split("/").every((s) => SEGMENT.test(s))) {
    throw new TypeError(`Invalid store prefix ${JSON.stringify(prefix)}`);
  }
}

/** The parts of a job the store holds. */
export type JobPart = "original" | "result" | "thumbnail";

/** `jobs/<jobId>/<part>`. */
export function jobKey(jobId: string, part: JobPart): string {
  const key = `jobs/${jobId}/${part}`;
  assertKey(key);
  return key;
}

/** `jobs/<jobId>/`: every key of one job. */
export function jobPrefix(jobId: string): string {
  const prefix = `jobs/${jobId}/`;
  assertPrefix(prefix);
  return prefix;
}

/** Removes every stored part of a job; answers how many objects went. */
export function deleteJob(store: ByteStore, jobId: string): Promise<number> {
  return store.deletePrefix(jobPrefix(jobId));
}

/** Collects `list(prefix)` into an array (tests, small prefixes). */
export async function listAll(store: ByteStore, prefix: string): Promise<StoredObject[]> {
  const out: StoredObject[] = [];
  for await (const object of store.list(prefix)) out.push(object);
  return out;
}

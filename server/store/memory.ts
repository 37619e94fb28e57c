import { encodeHexLowerCase } from "@oslojs/encoding";
import { toBlob } from "./body.ts";
import {
  assertKey,
  assertPrefix,
  type ByteStore,
  type PutOptions,
  type StoreBody,
  type StoredBody,
  type StoredObject,
  type StoredObjectInfo,
} from "./types.ts";

interface Entry {
  data: Blob;
  storedAt: Date;
}

export interface MemoryStoreOptions {
  /** Told the size of each Blob the store stops holding (let-go.ts). */
  onLetGo?: (bytes: number) => void;
}

/**
 * `STORE_URL=memory:` (the default): Blobs in a Map, gone when the process ends. Deno keeps Blob
 * bytes outside the JS heap; a stored Blob is kept without a copy and read back as a stream.
 * `usedBytes` counts each distinct Blob once (a result that is the original itself costs nothing
 * more), for a per-process `ByteBudget`. Equal bytes of one type are one Blob: a photo uploaded again
 * (to try other settings, the commonest reason) is held once, however many jobs keep it.
 */
export class MemoryStore implements ByteStore {
  readonly kind = "memory" as const;
  readonly description = "memory (this process only)";
  #entries = new Map<string, Entry>();
  /** How many keys hold each Blob. */
  #refs = new Map<Blob, number>();
  /** Each held Blob by its content (type and SHA-256), and back. */
  #byContent = new Map<string, Blob>();
  #contentOf = new Map<Blob, string>();
  #used = 0;
  /**
   * Told the size of each Blob the store stops holding: an equal one already held (the caller's copy is then
   * garbage) or an entry dropped by its last key. Deno frees a Blob's bytes only when V8 collects it, and V8
   * does not count them (let-go.ts).
   */
  readonly #onLetGo: (bytes: number) => void;

  constructor(options: MemoryStoreOptions = {}) {
    this.#onLetGo = options.onLetGo ?? (() => {});
  }

  /** Bytes held, each distinct Blob once. */
  get usedBytes(): number {
    return this.#used;
  }

  async put(key: string, body: StoreBody, options: PutOptions): Promise<StoredObjectInfo> {
    assertKey(key);
    const given = await toBlob(body, options);
    const data = await this.#held(given);
    if (data !== given) this.#onLetGo(given.size);
    this.#drop(key);
    const entry = { data, storedAt: new Date() };
    this.#entries.set(key, entry);
    const refs = this.#refs.get(data) ?? 0;
    this.#refs.set(data, refs + 1);
    if (refs === 0) this.#used += data.size;
    return info(key, entry);
  }

  get(key: string): Promise<StoredBody | null> {
    assertKey(key);
    const entry = this.#entries.get(key);
    return Promise.resolve(entry ? { ...info(key, entry), body: chunkedStream(entry.data) } : null);
  }

  /** The stored Blob itself (immutable, so no copy): it can cross to a worker as it is. */
  blob(key: string): Blob | null {
    assertKey(key);
    return this.#entries.get(key)?.data ?? null;
  }

  head(key: string): Promise<StoredObjectInfo | null> {
    assertKey(key);
    const entry = this.#entries.get(key);
    return Promise.resolve(entry ? info(key, entry) : null);
  }

  delete(key: string): Promise<void> {
    assertKey(key);
    this.#drop(key);
    return Promise.resolve();
  }

  deletePrefix(prefix: string): Promise<number> {
    assertPrefix(prefix);
    let removed = 0;
    for (const key of [...this.#entries.keys()]) {
      if (key.startsWith(prefix) && this.#drop(key)) removed++;
    }
    return Promise.resolve(removed);
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    assertPrefix(prefix);
    for (const [key, entry] of [...this.#entries]) {
      if (key.startsWith(prefix)) yield { key, size: entry.data.size, storedAt: entry.storedAt };
    }
  }

  check(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** The Blob already held with the same type and bytes, else `blob` (registered as that content's). */
  async #held(blob: Blob): Promise<Blob> {
    if (this.#refs.has(blob)) return blob;
    const digest = await crypto.subtle.digest("SHA-256", await blob.arrayBuffer());
    const content = `${blob.type} ${blob.size} ${encodeHexLowerCase(new Uint8Array(digest))}`;
    const held = this.#byContent.get(content);
    if (held) return held;
    this.#byContent.set(content, blob);
    this.#contentOf.set(blob, content);
    return blob;
  }

  #drop(key: string): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#entries.delete(key);
    const refs = this.#refs.get(entry.data)! - 1;
    if (refs > 0) {
      this.#refs.set(entry.data, refs);
    } else {
      this.#refs.delete(entry.data);
      this.#used -= entry.data.size;
      this.#onLetGo(entry.data.size);
      const content = this.#contentOf.get(entry.data);
      this.#contentOf.delete(entry.data);
      if (content !== undefined && this.#byContent.get(content) === entry.data) this.#byContent.delete(content);
    }
    return true;
  }
}

/**
 * The Blob as a stream of slices of at most 256 KiB: Deno's `Blob.stream()` hands a stored array
 * over as one chunk, which would put a whole 25 MB result in the heap at once for a ZIP.
 */
function chunkedStream(blob: Blob, chunkSize = 256 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      if (offset >= blob.size) return controller.close();
      const end = Math.min(offset + chunkSize, blob.size);
      const chunk = new Uint8Array(await blob.slice(offset, end).arrayBuffer());
      offset = end;
      controller.enqueue(chunk);
    },
  });
}

function info(key: string, entry: Entry): StoredObjectInfo {
  return { key, size: entry.data.size, contentType: entry.data.type, storedAt: entry.storedAt };
}

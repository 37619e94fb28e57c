/**
 * Originals and results live only here, in memory (DESIGN §5): never on disk.
 * A byte cap refuses new uploads instead of evicting unfinished work.
 */
/**
 * Bytes are held as Blobs: Deno keeps Blob data outside the JS heap, an upload's
 * File is stored without a copy, and responses stream from it.
 */
export interface StoredFile {
  data: Blob;
  mimeType: string;
}

interface Entry {
  original: StoredFile;
  result: StoredFile | null;
  thumbnail: StoredFile | null;
}

export class ByteStore {
  #entries = new Map<string, Entry>();
  #used = 0;

  constructor(readonly maxBytes: number) {}

  get usedBytes(): number {
    return this.#used;
  }

  /** Whether `bytes` more fit under the cap right now. */
  hasRoomFor(bytes: number): boolean {
    return this.#used + bytes <= this.maxBytes;
  }

  putOriginal(jobId: string, file: StoredFile): void {
    this.delete(jobId);
    this.#entries.set(jobId, { original: file, result: null, thumbnail: null });
    this.#used += file.data.size;
  }

  /** Stores a result; when it is the original itself, no extra bytes are held. */
  putResult(jobId: string, file: StoredFile): void {
    const entry = this.#entries.get(jobId);
    if (!entry) return;
    if (entry.result && entry.result !== entry.original) this.#used -= entry.result.data.size;
    entry.result = file;
    if (file !== entry.original) this.#used += file.data.size;
  }

  putThumbnail(jobId: string, file: StoredFile): void {
    const entry = this.#entries.get(jobId);
    if (!entry) return;
    this.#used += file.data.size - (entry.thumbnail?.data.size ?? 0);
    entry.thumbnail = file;
  }

  original(jobId: string): StoredFile | null {
    return this.#entries.get(jobId)?.original ?? null;
  }

  result(jobId: string): StoredFile | null {
    return this.#entries.get(jobId)?.result ?? null;
  }

  thumbnail(jobId: string): StoredFile | null {
    return this.#entries.get(jobId)?.thumbnail ?? null;
  }

  delete(jobId: string): void {
    const entry = this.#entries.get(jobId);
    if (!entry) return;
    this.#used -= entry.original.data.size + (entry.thumbnail?.data.size ?? 0);
    if (entry.result && entry.result !== entry.original) this.#used -= entry.result.data.size;
    this.#entries.delete(jobId);
  }
}

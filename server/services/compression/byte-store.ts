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

/**
 * Room promised to an upload while its body streams in, before its files are
 * stored: checking and taking happen in one synchronous step, so parallel
 * uploads can never promise more than the cap holds.
 */
export class Reservation {
  #bytes = 0;
  #released = false;

  constructor(private store: ByteStore) {}

  get bytes(): number {
    return this.#bytes;
  }

  /** Takes `bytes` more; false (and nothing taken) when the store has no room for them. */
  grow(bytes: number): boolean {
    if (this.#released || !this.store.tryReserve(bytes)) return false;
    this.#bytes += bytes;
    return true;
  }

  /** Gives the room back; safe to call on every path, more than once. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.store.unreserve(this.#bytes);
  }
}

export class ByteStore {
  #entries = new Map<string, Entry>();
  #used = 0;
  /** Room promised to uploads still arriving (see Reservation). */
  #reserved = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes stored. */
  get usedBytes(): number {
    return this.#used;
  }

  /** Bytes stored plus those promised to uploads in flight: what memory must hold. */
  get heldBytes(): number {
    return this.#used + this.#reserved;
  }

  /** Whether `bytes` more fit under the cap right now, counting uploads in flight. */
  hasRoomFor(bytes: number): boolean {
    return this.heldBytes + bytes <= this.maxBytes;
  }

  reserve(): Reservation {
    return new Reservation(this);
  }

  tryReserve(bytes: number): boolean {
    if (!this.hasRoomFor(bytes)) return false;
    this.#reserved += bytes;
    return true;
  }

  unreserve(bytes: number): void {
    this.#reserved -= bytes;
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

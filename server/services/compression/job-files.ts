/**
 * A job's bytes in the byte store (server/store, STORE_URL; ADR 014): its original, its result
 * (absent when the result is the original itself) and its thumbnail, under `jobs/<id>/<part>`,
 * and the room they take under MAX_STORE_BYTES (a ByteBudget, with reservations while uploads
 * stream in).
 *
 * The cap counts what this process stores: for the memory backend that is the store's own count
 * (exact, per process); for file and S3 it is a soft cap over the bytes this process put and has
 * not deleted (other instances' uploads are not seen; ADR 014).
 */
import {
  ByteBudget,
  type ByteStore,
  deleteJob,
  jobKey,
  type JobPart,
  MemoryStore,
  type Reservation,
  type StoredBody,
} from "../../store/mod.ts";
import type { ImageInput } from "../../../codecs/mod.ts";
import type { BytesEffect } from "../lifecycle/transitions.ts";
import { log } from "../../log.ts";

/** A stored part as served: a stream with its size and content type. */
export interface JobFile {
  body: ReadableStream<Uint8Array>;
  size: number;
  mimeType: string;
}

export class JobFiles {
  readonly budget: ByteBudget;
  /** Bytes put by this process per job (file and S3 backends). */
  #counted = new Map<string, number>();
  #countedTotal = 0;

  constructor(readonly store: ByteStore, maxBytes: number) {
    const memory = store instanceof MemoryStore ? store : null;
    this.budget = new ByteBudget(maxBytes, () => memory ? memory.usedBytes : this.#countedTotal);
  }

  /** Bytes stored plus those promised to uploads in flight. */
  get heldBytes(): number {
    return this.budget.heldBytes;
  }

  reserve(): Reservation {
    return this.budget.reserve();
  }

  async put(jobId: string, part: JobPart, body: Blob | Uint8Array, mimeType: string): Promise<void> {
    const info = await this.store.put(jobKey(jobId, part), body, { contentType: mimeType });
    this.#count(jobId, info.size);
  }

  async get(jobId: string, part: JobPart): Promise<JobFile | null> {
    const found: StoredBody | null = await this.store.get(jobKey(jobId, part));
    return found && { body: found.body, size: found.size, mimeType: found.contentType };
  }

  /**
   * The part for the codec: the memory store's own Blob (the worker reads it, so no copy is made
   * on this thread: polls are not held up by a large image's copy and page faults), otherwise the
   * whole part as a fresh array (the pool takes it). Null when it is gone.
   */
  async forCodec(jobId: string, part: JobPart): Promise<ImageInput | null> {
    if (this.store instanceof MemoryStore) return this.store.blob(jobKey(jobId, part));
    return await this.#bytes(jobId, part);
  }

  /** The part as a Blob: the memory store's own (stored again, it is counted once), else read into one. */
  async blob(jobId: string, part: JobPart, type: string): Promise<Blob | null> {
    if (this.store instanceof MemoryStore) return this.store.blob(jobKey(jobId, part));
    const bytes = await this.#bytes(jobId, part);
    return bytes && new Blob([bytes as Uint8Array<ArrayBuffer>], { type });
  }

  /** The whole part as a fresh array (the pool may take it), or null when it is gone. */
  async #bytes(jobId: string, part: JobPart): Promise<Uint8Array | null> {
    const found = await this.store.get(jobKey(jobId, part));
    return found && new Uint8Array(await new Response(found.body).arrayBuffer());
  }

  /** Whether the part is stored (without reading it). */
  async has(jobId: string, part: JobPart): Promise<boolean> {
    return (await this.store.head(jobKey(jobId, part))) !== null;
  }

  /**
   * The one place a job's bytes are freed: the jobs a transition's result names (`freeBytes`,
   * lifecycle/transitions.ts), handed over as it is right after the transition commits, so which
   * bytes go is decided where the job's end is decided, never by the caller. (An admission whose
   * transition did not commit hands over the originals it stored: no row claims them.) Never
   * throws: a part left behind is found by the retention sweep.
   */
  async free(effect: BytesEffect): Promise<void> {
    await Promise.all(effect.freeBytes.map((id) => this.#delete(id)));
  }

  /** Frees every part of the job; never throws (a stray is found by the retention sweep). */
  async #delete(jobId: string): Promise<void> {
    try {
      await deleteJob(this.store, jobId);
    } catch (err) {
      log.error("job bytes not deleted (the sweep retries)", { job: jobId, error: err });
    }
    const counted = this.#counted.get(jobId) ?? 0;
    this.#counted.delete(jobId);
    this.#countedTotal -= counted;
  }

  #count(jobId: string, bytes: number): void {
    this.#counted.set(jobId, (this.#counted.get(jobId) ?? 0) + bytes);
    this.#countedTotal += bytes;
  }
}

import { dirname, join, resolve } from "node:path";
import { checkComplete, declaredSize, limitStream } from "./body.ts";
import {
  assertKey,
  assertPrefix,
  type ByteStore,
  type PutOptions,
  type StoreBody,
  type StoredBody,
  type StoredObject,
  type StoredObjectInfo,
  StoreError,
} from "./types.ts";

/**
 * `STORE_URL=file:DIR`: one file per key under DIR (`jobs/<id>/original` → `DIR/jobs/<id>/original`),
 * for one machine whose bytes must survive a restart. Each file starts with one line of JSON
 * (content type, size, stored-at time) and then the bytes, so one rename publishes everything
 * together: a put writes `.<name>.<random>.tmp` beside the target, syncs it and renames it over
 * the key, and a crash leaves either the old object, the new one, or a hidden temp file, never
 * half a file under a key. Keys never start with a dot, so temp files are never listed.
 */
export class FileStore implements ByteStore {
  readonly kind = "file" as const;
  readonly root: string;
  readonly description: string;

  constructor(dir: string) {
    this.root = resolve(dir);
    this.description = `file:${this.root}`;
  }

  async put(key: string, body: StoreBody, options: PutOptions): Promise<StoredObjectInfo> {
    assertKey(key);
    const size = declaredSize(body, options);
    const storedAt = new Date();
    const header: FileHeader = { v: 1, contentType: options.contentType, size, storedAt: storedAt.toISOString() };
    const headerBytes = new TextEncoder().encode(JSON.stringify(header) + "\n");
    if (headerBytes.byteLength > MAX_HEADER) throw new TypeError("put: content type too long");

    const path = this.#path(key);
    const temp = join(dirname(path), `.${path.slice(dirname(path).length + 1)}.${crypto.randomUUID()}.tmp`);
    const file = await openNew(temp);
    let closed = false;
    try {
      await writeAll(file, headerBytes);
      let written = 0;
      const stream = body instanceof ReadableStream
        ? body.pipeThrough(limitStream(size))
        : body instanceof Blob
        ? body.stream()
        : null;
      if (stream) {
        for await (const chunk of stream) {
          await writeAll(file, chunk);
          written += chunk.byteLength;
        }
      } else {
        await writeAll(file, body as Uint8Array);
        written = (body as Uint8Array).byteLength;
      }
      checkComplete(written, size);
      await file.syncData();
      file.close();
      closed = true;
      await Deno.rename(temp, path);
    } catch (err) {
      if (!closed) file.close();
      await Deno.remove(temp).catch(() => {});
      throw err;
    }
    return { key, size, contentType: options.contentType, storedAt };
  }

  async get(key: string): Promise<StoredBody | null> {
    assertKey(key);
    const opened = await this.#open(key);
    if (!opened) return null;
    const { file, header, headerLength } = opened;
    try {
      await file.seek(headerLength, Deno.SeekMode.Start);
    } catch (err) {
      file.close();
      throw err;
    }
    // The stream closes the file when it is read to the end or cancelled.
    return { ...infoOf(key, header), body: file.readable };
  }

  async head(key: string): Promise<StoredObjectInfo | null> {
    assertKey(key);
    const opened = await this.#open(key);
    if (!opened) return null;
    opened.file.close();
    return infoOf(key, opened.header);
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    const path = this.#path(key);
    try {
      await Deno.remove(path);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    await this.#pruneEmptyParents(dirname(path));
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertPrefix(prefix);
    let removed = 0;
    for await (const { key } of this.#walkKeys(prefix)) {
      try {
        await Deno.remove(this.#path(key));
        removed++;
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      }
    }
    if (prefix.endsWith("/")) {
      // The folder of a job: its temp files of puts cut short go with it.
      const dir = join(this.root, prefix);
      await Deno.remove(dir, { recursive: true }).catch((err) => {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      });
      await this.#pruneEmptyParents(dirname(dir));
    }
    return removed;
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    assertPrefix(prefix);
    for await (const { key } of this.#walkKeys(prefix)) {
      const opened = await this.#open(key);
      if (!opened) continue; // deleted meanwhile
      opened.file.close();
      yield { key, size: opened.header.size, storedAt: new Date(opened.header.storedAt) };
    }
  }

  /** Creates the folder and writes, syncs and removes a hidden probe file in it. */
  async check(): Promise<void> {
    const probe = join(this.root, `.probe.${crypto.randomUUID()}.tmp`);
    try {
      await Deno.mkdir(this.root, { recursive: true });
      await Deno.writeFile(probe, new Uint8Array([1]));
      await Deno.remove(probe);
    } catch (err) {
      throw new StoreError(`file store: cannot write in ${this.root} (${(err as Error).message})`, undefined, {
        cause: err,
      });
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  #path(key: string): string {
    return join(this.root, key);
  }

  /** Keys under `prefix`, found by walking the folder its last `/` names. */
  async *#walkKeys(prefix: string): AsyncIterable<{ key: string }> {
    const base = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/") + 1) : "";
    const walk = async function* (dir: string, keyPrefix: string): AsyncIterable<{ key: string }> {
      let entries: Deno.DirEntry[];
      try {
        entries = await Array.fromAsync(Deno.readDir(dir));
      } catch (err) {
        if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return;
        throw err;
      }
      for (const entry of entries) {
        if (entry.name.startsWith(".")) continue; // temp files
        const key = keyPrefix + entry.name;
        if (entry.isDirectory) {
          if ((key + "/").startsWith(prefix) || prefix.startsWith(key + "/")) {
            yield* walk(join(dir, entry.name), key + "/");
          }
        } else if (entry.isFile && key.startsWith(prefix)) {
          yield { key };
        }
      }
    };
    yield* walk(join(this.root, base), base);
  }

  async #open(key: string): Promise<{ file: Deno.FsFile; header: FileHeader; headerLength: number } | null> {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(this.#path(key), { read: true });
    } catch (err) {
      if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return null;
      throw err;
    }
    try {
      const buf = new Uint8Array(MAX_HEADER);
      let filled = 0;
      let newline = -1;
      while (newline < 0 && filled < buf.length) {
        const n = await file.read(buf.subarray(filled));
        if (n === null) break;
        newline = buf.subarray(0, filled + n).indexOf(10, filled);
        filled += n;
      }
      if (newline < 0) throw new StoreError(`file store: ${this.#path(key)} has no header; not written by this store`);
      const header = JSON.parse(new TextDecoder().decode(buf.subarray(0, newline))) as FileHeader;
      const { size } = await file.stat();
      if (header.v !== 1 || size !== newline + 1 + header.size) {
        throw new StoreError(`file store: ${this.#path(key)} is damaged (${size} bytes on disk)`);
      }
      return { file, header, headerLength: newline + 1 };
    } catch (err) {
      file.close();
      throw err;
    }
  }

  /** Removes now-empty folders between `dir` and the root (a job's folder once its last file went). */
  async #pruneEmptyParents(dir: string): Promise<void> {
    while (dir.startsWith(this.root + "/")) {
      try {
        await Deno.remove(dir); // fails, as it should, when not empty
      } catch {
        return;
      }
      dir = dirname(dir);
    }
  }
}

interface FileHeader {
  v: 1;
  contentType: string;
  size: number;
  storedAt: string;
}

const MAX_HEADER = 1024;

function infoOf(key: string, header: FileHeader): StoredObjectInfo {
  return { key, size: header.size, contentType: header.contentType, storedAt: new Date(header.storedAt) };
}

/** Creates the temp file, and its folder; retries when another put's cleanup removed the folder meanwhile. */
async function openNew(path: string): Promise<Deno.FsFile> {
  for (let attempt = 0;; attempt++) {
    await Deno.mkdir(dirname(path), { recursive: true });
    try {
      return await Deno.open(path, { write: true, createNew: true });
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound) || attempt >= 3) throw err;
    }
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.byteLength) offset += await file.write(bytes.subarray(offset));
}

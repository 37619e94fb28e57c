/**
 * Writing a result: streamed to a temporary file in its output's folder, renamed over the output once whole, so a
 * reader never sees half a result and a failed or stopped write leaves whatever was there (with --in-place, the
 * original). Temporary names are short and fixed in length (`.squeeze-1a2b3c4d.part`), not the output's name plus
 * a suffix: a name near the 255-byte limit must not fail after the server has compressed and counted it (issue 29, L3).
 */
import { dirname, join } from "node:path";
import { FileFailedError } from "./client.ts";

/** Temporary files in being, so a second Ctrl-C (or SIGTERM) can remove them without waiting for anything. */
const live = new Set<string>();

const TEMP_PATTERN = /^\.squeeze-[0-9a-f]{8}\.part$/;

/** True for a name this module gives its temporary files. */
export const isTempName = (name: string): boolean => TEMP_PATTERN.test(name);

function tempName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return `.squeeze-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}.part`;
}

async function createTemp(dir: string): Promise<{ path: string; file: Deno.FsFile }> {
  for (let attempt = 1;; attempt++) {
    const path = join(dir, tempName());
    try {
      const file = await Deno.open(path, { write: true, createNew: true });
      live.add(path);
      return { path, file };
    } catch (err) {
      if (err instanceof Deno.errors.AlreadyExists && attempt < 5) continue;
      throw err;
    }
  }
}

async function removeTemp(path: string): Promise<void> {
  await Deno.remove(path).catch(() => {});
  live.delete(path);
}

/** Removes every temporary file still there, at once (the process is about to end without waiting for its writes). */
export function removeTempFilesSync(): void {
  for (const path of live) {
    try {
      Deno.removeSync(path);
    } catch { /* gone already */ }
  }
  live.clear();
}

/**
 * Fails unless a file can be made where `output`'s temporary file will be: in its folder, or, when that folder does
 * not exist yet, in the nearest one that does (where it will be made). Called before the file is sent, so an
 * unwritable folder (a read-only one with --in-place) costs no compression. The probe is created and removed.
 */
export async function checkWritable(output: string): Promise<void> {
  let dir = dirname(output);
  for (;;) {
    const info = await Deno.stat(dir).catch((err) => {
      if (err instanceof Deno.errors.NotFound) return null;
      throw err;
    });
    if (info) {
      if (!info.isDirectory) throw new Error(`${dir} is not a folder`);
      break;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const probe = await createTemp(dir);
  probe.file.close();
  await removeTemp(probe.path);
}

/**
 * Streams `body` to a temporary file in `output`'s folder (made if need be), then renames it over `output`;
 * resolves to the bytes written. An error of the body's own (a FileFailedError: the answer was not a result) or
 * an abort is thrown as it is; anything else is the disk's, "Cannot write …".
 */
export async function writeAtomically(
  output: string,
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): Promise<number> {
  let temp: string | null = null;
  let bytes = 0;
  try {
    const dir = dirname(output);
    await Deno.mkdir(dir, { recursive: true });
    const created = await createTemp(dir);
    temp = created.path;
    const count = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    await body.pipeThrough(count).pipeTo(created.file.writable, { signal });
    // A file replaced (--in-place, or a result from an earlier run) keeps its permissions.
    const mode = await Deno.stat(output).then((info) => info.mode, () => null);
    if (mode !== null && Deno.build.os !== "windows") await Deno.chmod(temp, mode & 0o7777);
    await Deno.rename(temp, output);
    live.delete(temp);
    return bytes;
  } catch (err) {
    if (temp !== null) await removeTemp(temp);
    if (signal?.aborted) throw signal.reason;
    if (err instanceof FileFailedError) throw err;
    throw new Error(`Cannot write ${output}: ${(err as Error).message}`);
  }
}

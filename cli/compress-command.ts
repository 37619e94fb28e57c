/**
 * `compress`: plans the files, sends them `concurrency` at a time, streams each result to a temporary
 * file beside its output and renames it into place (so an interrupted run never leaves half a file,
 * nor a half-replaced original with --in-place), and reports. A refused key (401), a refused request
 * (403) or an unreachable server stops the run at once; any other failure is that file's, and the run goes on.
 */
import { basename, dirname, join } from "node:path";
import { V1_HEADERS } from "../contract/api-keys.ts";
import { type CompressOptions, settingsQuery } from "./args.ts";
import { type CompressClient, postImage, type RetryPolicy, RunStoppedError } from "./client.ts";
import { type FileResult, Reporter, type Totals, type Write } from "./report.ts";
import { planFiles, type PlannedFile } from "./walk.ts";

export interface CommandIO {
  stdout: Write;
  stderr: Write;
  /** Draw the progress bar on stderr. */
  progress: boolean;
  columns?: number;
  /** Aborts the run (Ctrl-C): requests in flight stop and their temporary files go. */
  signal?: AbortSignal;
  /** Retry timings (tests shorten them). */
  retry?: Partial<RetryPolicy>;
}

/** Runs the command; resolves to the exit code (planning errors throw CliError/UsageError). */
export async function runCompress(options: CompressOptions, io: CommandIO): Promise<number> {
  const files = await planFiles(options);
  const reporter = new Reporter({
    stdout: io.stdout,
    stderr: io.stderr,
    json: options.json,
    progress: io.progress,
    columns: io.columns,
    files: files.length,
    bytes: files.reduce((sum, f) => sum + f.size, 0),
  });
  const stop = new AbortController();
  const signal = io.signal ? AbortSignal.any([io.signal, stop.signal]) : stop.signal;
  const client: CompressClient = {
    url: options.url,
    key: options.key,
    query: settingsQuery(options),
    retry: io.retry,
    signal,
  };
  const totals: Totals = { files: files.length, succeeded: 0, failed: 0, originalSize: 0, compressedSize: 0 };

  let next = 0;
  const lane = async () => {
    while (next < files.length && !signal.aborted) {
      const file = files[next++]!;
      const result = await compressOne(file, {
        ...client,
        onRetry: (n) => reporter.note(`${file.input}: ${n.reason}; trying again in ${Math.ceil(n.waitMs / 1000)} s`),
      }).catch((err) => {
        if (err instanceof RunStoppedError) {
          totals.error ??= err.message;
          stop.abort(err);
          return null;
        }
        if (signal.aborted) return null; // stopped: this file is neither done nor failed
        return { path: file.input, output: file.output, error: (err as Error).message } satisfies FileResult;
      });
      if (result === null) continue;
      if ("error" in result) {
        totals.failed++;
      } else {
        totals.succeeded++;
        totals.originalSize += result.originalSize;
        totals.compressedSize += result.compressedSize;
      }
      reporter.file(result, file.size);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, files.length) }, lane));

  if (!totals.error && io.signal?.aborted) totals.error = "Interrupted";
  reporter.end(totals);
  return totals.error || totals.failed > 0 ? 1 : 0;
}

/** Sends one file and writes its result; resolves to its line's data. */
async function compressOne(file: PlannedFile, client: CompressClient): Promise<FileResult> {
  const res = await postImage(file.input, client);
  const h = res.headers;
  const written = await writeAtomically(file.output, res.body, client.signal);
  return {
    path: file.input,
    output: file.output,
    originalSize: numberHeader(h.get(V1_HEADERS.originalSize)) ?? file.size,
    compressedSize: written,
    width: numberHeader(h.get(V1_HEADERS.width)),
    height: numberHeader(h.get(V1_HEADERS.height)),
    score: numberHeader(h.get(V1_HEADERS.score)),
    jobId: h.get(V1_HEADERS.jobId),
  };
}

function numberHeader(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * Streams `body` to a temporary file in `output`'s folder, then renames it over `output`: a reader never
 * sees half a result, and a failed or stopped write leaves whatever was there before. Resolves to the bytes written.
 */
export async function writeAtomically(
  output: string,
  body: ReadableStream<Uint8Array> | null,
  signal?: AbortSignal,
): Promise<number> {
  const dir = dirname(output);
  await Deno.mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(output)}.${crypto.randomUUID().slice(0, 8)}.part`);
  let bytes = 0;
  try {
    const file = await Deno.open(temp, { write: true, createNew: true });
    const count = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    await (body ?? new Response("").body!).pipeThrough(count).pipeTo(file.writable, { signal });
    if (bytes === 0) throw new Error("The server answered an empty result");
    // A file replaced (--in-place, or a result from an earlier run) keeps its permissions.
    const mode = await Deno.stat(output).then((info) => info.mode, () => null);
    if (mode !== null && Deno.build.os !== "windows") await Deno.chmod(temp, mode & 0o7777);
    await Deno.rename(temp, output);
    return bytes;
  } catch (err) {
    await Deno.remove(temp).catch(() => {});
    if (signal?.aborted) throw signal.reason;
    throw new Error(`Cannot write ${output}: ${(err as Error).message}`);
  }
}

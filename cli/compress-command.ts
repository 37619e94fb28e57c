/**
 * `compress`: plans the files, sends them `concurrency` at a time, checks each answer is the result asked
 * for, streams it to a temporary file beside its output and renames it into place (so an interrupted run
 * never leaves half a file, nor a half-replaced original with --in-place), and reports. A refused key (401),
 * a refused request (403) or an unreachable server stops the run at once; any other failure is that file's,
 * and the run goes on.
 */
import { basename, dirname, isAbsolute, join } from "node:path";
import { unzipSync } from "fflate";
import { V1, V1_HEADERS } from "../contract/api-keys.ts";
import type { FormatChoice, OutputFormat } from "../contract/settings.ts";
import { type CompressOptions, settingsQuery } from "./args.ts";
import {
  type CompressClient,
  FileFailedError,
  postImage,
  type RetryPolicy,
  RunStoppedError,
  TimedOutError,
} from "./client.ts";
import { checkWritable, writeAtomically } from "./output-file.ts";
import { type FileResult, Reporter, type Totals, type Write } from "./report.ts";
import { expectedResult, UnverifiedAnswerError, verifiedBody } from "./verify-result.ts";
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
    endpoint: options.restore ? V1.restore : V1.compress,
    query: options.restore ? new URLSearchParams() : settingsQuery(options),
    retry: io.retry,
    timeoutSeconds: options.timeout,
    signal,
  };
  const totals: Totals = { files: files.length, succeeded: 0, failed: 0, originalSize: 0, compressedSize: 0 };

  let next = 0;
  const lane = async () => {
    while (next < files.length && !signal.aborted) {
      const file = files[next++]!;
      const result = await compressOne(file, options, {
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

  if (!totals.error && io.signal?.aborted) {
    totals.error = io.signal.reason instanceof Error ? io.signal.reason.message : "Interrupted";
  }
  reporter.end(totals);
  return totals.error || totals.failed > 0 ? 1 : 0;
}

/** Sends one file and writes its result once verified; resolves to its line's data. */
async function compressOne(
  file: PlannedFile,
  run: { format?: FormatChoice; formats?: OutputFormat[]; inPlace: boolean; widths?: number[]; restore?: boolean },
  client: CompressClient,
): Promise<FileResult> {
  // Before the server sees (and counts) the file: a result that cannot be written would be paid for and lost.
  await checkWritable(file.output).catch((err) => {
    throw new FileFailedError(`Cannot write in ${dirname(file.output)}: ${(err as Error).message}; it was not sent`);
  });
  let body: ReadableStream<Uint8Array> | null = null;
  try {
    const res = await postImage(file.input, client);
    body = res.body!;
    const expected = expectedResult(res.headers, run);
    body = verifiedBody(body, expected);
    // Named by what came: the format auto chose, or the original kept as a JPEG.
    const output = (expected.format && file.outputs[expected.format]) ?? file.output;
    const written = run.widths
      ? await writeSet(dirname(file.output), new Uint8Array(await new Response(body).arrayBuffer()), client.signal)
      : await writeAtomically(output, body, client.signal);
    const h = res.headers;
    return {
      path: file.input,
      output,
      originalSize: numberHeader(h.get(V1_HEADERS.originalSize)) ?? file.size,
      compressedSize: written,
      width: numberHeader(h.get(V1_HEADERS.width)),
      height: numberHeader(h.get(V1_HEADERS.height)),
      score: numberHeader(h.get(V1_HEADERS.score)),
      jobId: expected.jobId,
    };
  } catch (err) {
    // Unread or half read: let the connection (and the request's timeout) go.
    await body?.cancel().catch(() => {});
    if (err instanceof UnverifiedAnswerError || err instanceof TimedOutError) {
      const kept = run.inPlace ? `'${basename(file.input)}' was left untouched` : "nothing was written";
      throw new FileFailedError(`${err.message}; ${kept}`);
    }
    throw err;
  }
}

/**
 * A web set's ZIP unpacked beside where the photo's result would go (`out/beach/beach-1280.avif`, its
 * picture.html and manifest.json), each file written atomically. An entry that would land outside that
 * folder fails the file before anything is written. Resolves to the ZIP's size.
 */
async function writeSet(dir: string, zip: Uint8Array, signal?: AbortSignal): Promise<number> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip);
  } catch (err) {
    throw new UnverifiedAnswerError(`is not a readable ZIP (${(err as Error).message})`);
  }
  const outside = Object.keys(entries).find((name) =>
    isAbsolute(name) || name.split(/[\\/]/).some((part) => part === "..") || name.includes("\0")
  );
  if (outside !== undefined) throw new UnverifiedAnswerError(`has an entry outside its folder ('${outside}')`);
  for (const [name, bytes] of Object.entries(entries)) {
    if (name.endsWith("/")) continue;
    await writeAtomically(join(dir, name), new Blob([bytes as Uint8Array<ArrayBuffer>]).stream(), signal);
  }
  return zip.length;
}

function numberHeader(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * What the CLI prints: a line per file and a totals line (or one JSON object per file and a summary
 * with --json) on stdout, and a progress bar on stderr when stderr is a terminal.
 */
import { formatBytes } from "../contract/format-bytes.ts";
import { escapeControls } from "./terminal-text.ts";

export interface FileDone {
  path: string;
  output: string;
  originalSize: number;
  compressedSize: number;
  width: number | null;
  height: number | null;
  score: number | null;
  jobId: string | null;
}

export interface FileFailed {
  path: string;
  output: string;
  error: string;
}

export type FileResult = FileDone | FileFailed;

export const failed = (r: FileResult): r is FileFailed => "error" in r;

export interface Totals {
  files: number;
  succeeded: number;
  failed: number;
  originalSize: number;
  compressedSize: number;
  /** Set when the run stopped early (a refused key, an unreachable server). */
  error?: string;
}

/** The fraction of the original saved, e.g. 0.7213 (negative when the result is larger). */
export function saving(originalSize: number, compressedSize: number): number {
  if (originalSize <= 0) return 0;
  return Math.round((1 - compressedSize / originalSize) * 10_000) / 10_000;
}

/** The change in size as people read it: "-72%", "+3%", "0%". */
export function formatChange(originalSize: number, compressedSize: number): string {
  const pct = Math.round(-saving(originalSize, compressedSize) * 100);
  return pct === 0 ? "0%" : `${pct > 0 ? "+" : "-"}${Math.abs(pct)}%`;
}

/**
 * `name  1.20 MB → 340 KB  -72%  score 81.3` (the score only when the server measured one); the name and an
 * error (which may quote the server) with their control characters escaped, so a line stays one line.
 */
export function fileLine(r: FileResult): string {
  if (failed(r)) return `${escapeControls(r.path)}  failed: ${escapeControls(r.error)}`;
  const score = r.score === null ? "" : `  score ${r.score.toFixed(1)}`;
  return `${escapeControls(r.path)}  ${formatBytes(r.originalSize)} → ${formatBytes(r.compressedSize)}  ` +
    `${formatChange(r.originalSize, r.compressedSize)}${score}`;
}

/** `3 files  4.10 MB → 1.20 MB  -71%  1 failed`. */
export function totalsLine(t: Totals): string {
  const files = `${t.succeeded} ${t.succeeded === 1 ? "file" : "files"}`;
  const bytes = `${formatBytes(t.originalSize)} → ${formatBytes(t.compressedSize)}`;
  const change = t.succeeded > 0 ? `  ${formatChange(t.originalSize, t.compressedSize)}` : "";
  const failures = t.failed > 0 ? `  ${t.failed} failed` : "";
  const skipped = t.files - t.succeeded - t.failed;
  const notDone = skipped > 0 ? `  ${skipped} not sent` : "";
  return `${files}  ${bytes}${change}${failures}${notDone}`;
}

/** One --json line for a file. */
export function fileJson(r: FileResult): string {
  if (failed(r)) return JSON.stringify({ type: "file", path: r.path, output: r.output, error: r.error });
  return JSON.stringify({
    type: "file",
    path: r.path,
    output: r.output,
    originalSize: r.originalSize,
    compressedSize: r.compressedSize,
    saving: saving(r.originalSize, r.compressedSize),
    width: r.width,
    height: r.height,
    score: r.score,
    jobId: r.jobId,
  });
}

/** The final --json line. */
export function summaryJson(t: Totals): string {
  return JSON.stringify({
    type: "summary",
    files: t.files,
    succeeded: t.succeeded,
    failed: t.failed,
    originalSize: t.originalSize,
    compressedSize: t.compressedSize,
    saving: saving(t.originalSize, t.compressedSize),
    ...(t.error ? { error: t.error } : {}),
  });
}

/** `[########------------]  3/10 files  4.10 MB / 12.0 MB`, within `columns`. */
export function progressBar(
  p: { done: number; total: number; bytesDone: number; bytesTotal: number },
  columns = 80,
): string {
  const tail = `  ${p.done}/${p.total} files  ${formatBytes(p.bytesDone)} / ${formatBytes(p.bytesTotal)}`;
  const width = Math.max(10, Math.min(40, columns - tail.length - 3));
  const fraction = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.total > 0 ? p.done / p.total : 1;
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}]${tail}`;
}

export type Write = (text: string) => void;

export interface ReporterOptions {
  stdout: Write;
  stderr: Write;
  json: boolean;
  /** Draw the progress bar (stderr is a terminal). */
  progress: boolean;
  columns?: number;
  files: number;
  bytes: number;
}

/** Prints results as they come, keeping the progress bar below them. */
export class Reporter {
  #o: ReporterOptions;
  #done = 0;
  #bytesDone = 0;
  #barShown = false;

  constructor(options: ReporterOptions) {
    this.#o = options;
    this.#draw();
  }

  /** A file finished (either way). */
  file(r: FileResult, plannedSize: number): void {
    this.#done++;
    this.#bytesDone += plannedSize;
    this.#clear();
    this.#o.stdout(`${this.#o.json ? fileJson(r) : fileLine(r)}\n`);
    this.#draw();
  }

  /** A note for the person watching (a retry, naming the file and quoting the server), on stderr. */
  note(text: string): void {
    this.#clear();
    this.#o.stderr(`${escapeControls(text)}\n`);
    this.#draw();
  }

  /** The totals line (or summary object), then any error that stopped the run on stderr. */
  end(t: Totals): void {
    this.#clear();
    this.#o.stdout(`${this.#o.json ? summaryJson(t) : totalsLine(t)}\n`);
    if (t.error) this.#o.stderr(`${escapeControls(t.error)}\n`);
    else if (t.failed > 0) this.#o.stderr(`${t.failed} of ${t.files} ${t.files === 1 ? "file" : "files"} failed\n`);
  }

  #draw(): void {
    if (!this.#o.progress) return;
    const bar = progressBar(
      { done: this.#done, total: this.#o.files, bytesDone: this.#bytesDone, bytesTotal: this.#o.bytes },
      this.#o.columns,
    );
    this.#o.stderr(`\r${bar}`);
    this.#barShown = true;
  }

  #clear(): void {
    if (!this.#barShown) return;
    this.#o.stderr("\r\x1b[2K");
    this.#barShown = false;
  }
}

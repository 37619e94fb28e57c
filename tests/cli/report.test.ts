import assert from "node:assert/strict";
import {
  fileJson,
  fileLine,
  formatChange,
  progressBar,
  Reporter,
  saving,
  summaryJson,
  totalsLine,
} from "../../cli/report.ts";
import { formatBytes } from "../../contract/format-bytes.ts";

const KB = 1024;
const MB = 1024 * KB;
const done = {
  path: "photos/a.jpg",
  output: "small/a.jpg",
  originalSize: Math.round(1.2 * MB),
  compressedSize: 340 * KB,
  width: 4000,
  height: 3000,
  score: 81.34,
  jobId: "job-1",
};

Deno.test("report: sizes and changes as people read them", () => {
  assert.equal(formatBytes(0), "0 B");
  assert.equal(formatBytes(512), "512 B");
  assert.equal(formatBytes(6.7 * KB), "6.7 KB");
  assert.equal(formatBytes(340 * KB), "340 KB");
  assert.equal(formatBytes(1.2 * MB), "1.20 MB");
  assert.equal(formatBytes(3 * 1024 * MB), "3.00 GB");
  assert.equal(formatChange(1000, 280), "-72%");
  assert.equal(formatChange(1000, 1030), "+3%");
  assert.equal(formatChange(1000, 1000), "0%");
  assert.equal(formatChange(1000, 998), "0%");
  assert.equal(saving(1000, 280), 0.72);
  assert.equal(saving(0, 0), 0);
});

Deno.test("report: a file's line, with the score only when there is one", () => {
  assert.equal(fileLine(done), "photos/a.jpg  1.20 MB → 340 KB  -72%  score 81.3");
  assert.equal(fileLine({ ...done, score: null }), "photos/a.jpg  1.20 MB → 340 KB  -72%");
  assert.equal(
    fileLine({ path: "b.jpg", output: "o/b.jpg", error: "not a JPEG (415)" }),
    "b.jpg  failed: not a JPEG (415)",
  );
});

Deno.test("report: the totals line counts files, bytes before → after, the saving and failures", () => {
  const t = { files: 4, succeeded: 3, failed: 1, originalSize: 4.1 * MB, compressedSize: 1.2 * MB };
  assert.equal(totalsLine(t), "3 files  4.10 MB → 1.20 MB  -71%  1 failed");
  assert.equal(totalsLine({ ...t, files: 1, succeeded: 1, failed: 0 }), "1 file  4.10 MB → 1.20 MB  -71%");
  assert.equal(
    totalsLine({ files: 5, succeeded: 1, failed: 0, originalSize: 2000, compressedSize: 1000, error: "x" }),
    "1 file  2.0 KB → 1000 B  -50%  4 not sent",
  );
});

Deno.test("report: --json objects for a file, a failure and the summary", () => {
  assert.deepEqual(JSON.parse(fileJson(done)), {
    type: "file",
    path: "photos/a.jpg",
    output: "small/a.jpg",
    originalSize: done.originalSize,
    compressedSize: done.compressedSize,
    saving: saving(done.originalSize, done.compressedSize),
    width: 4000,
    height: 3000,
    score: 81.34,
    jobId: "job-1",
  });
  assert.deepEqual(JSON.parse(fileJson({ path: "b.jpg", output: "o/b.jpg", error: "bad" })), {
    type: "file",
    path: "b.jpg",
    output: "o/b.jpg",
    error: "bad",
  });
  const summary = JSON.parse(
    summaryJson({ files: 2, succeeded: 1, failed: 1, originalSize: 1000, compressedSize: 400, error: "stopped" }),
  );
  assert.deepEqual(summary, {
    type: "summary",
    files: 2,
    succeeded: 1,
    failed: 1,
    originalSize: 1000,
    compressedSize: 400,
    saving: 0.6,
    error: "stopped",
  });
});

Deno.test("report: the progress bar fits the terminal and fills with the bytes done", () => {
  const bar = progressBar({ done: 3, total: 10, bytesDone: 5 * MB, bytesTotal: 10 * MB }, 80);
  assert.equal(bar, `[${"#".repeat(20)}${"-".repeat(20)}]  3/10 files  5.00 MB / 10.0 MB`);
  assert.ok(progressBar({ done: 0, total: 1, bytesDone: 0, bytesTotal: 0 }, 30).startsWith("[----------]"));
  assert.ok(progressBar({ done: 1, total: 1, bytesDone: 9, bytesTotal: 9 }, 200).length <= 200);
});

Deno.test("report: lines on stdout, the bar on stderr cleared before each line and gone at the end", () => {
  const out: string[] = [];
  const err: string[] = [];
  const r = new Reporter({
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    json: false,
    progress: true,
    columns: 80,
    files: 2,
    bytes: 2 * MB,
  });
  r.file(done, MB);
  r.file({ path: "b.jpg", output: "o/b.jpg", error: "bad" }, MB);
  r.end({ files: 2, succeeded: 1, failed: 1, originalSize: done.originalSize, compressedSize: done.compressedSize });
  assert.deepEqual(out, [
    "photos/a.jpg  1.20 MB → 340 KB  -72%  score 81.3\n",
    "b.jpg  failed: bad\n",
    "1 file  1.20 MB → 340 KB  -72%  1 failed\n",
  ]);
  assert.ok(err[0]!.startsWith("\r[") && err[0]!.includes("0/2 files"));
  assert.ok(err.some((t) => t.includes("1/2 files")) && err.some((t) => t.includes("2/2 files")));
  assert.equal(err.at(-2), "\r\x1b[2K", "the bar is cleared before the totals");
  assert.equal(err.at(-1), "1 of 2 files failed\n");

  // --json without a terminal: only JSON on stdout, nothing drawn.
  const jsonOut: string[] = [];
  const jsonErr: string[] = [];
  const j = new Reporter({
    stdout: (t) => jsonOut.push(t),
    stderr: (t) => jsonErr.push(t),
    json: true,
    progress: false,
    files: 1,
    bytes: MB,
  });
  j.file(done, MB);
  j.end({ files: 1, succeeded: 1, failed: 0, originalSize: 1, compressedSize: 1 });
  assert.deepEqual(jsonOut.map((l) => JSON.parse(l).type), ["file", "summary"]);
  assert.deepEqual(jsonErr, []);
});

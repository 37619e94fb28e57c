/**
 * Hostile uploads against a real server process (issue 29): each file is built here around a real
 * JPEG (tests/setup/hostile-jpegs.ts), sent in one upload with a good photo, and answered on its
 * own at admission; the good photo and a later upload still complete, and the server stays healthy.
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { startServer } from "../setup/server-process.ts";
import { remoteSignUp, remoteWaitForJobs } from "../setup/remote-client.ts";
import { afterSoi, bogusIcc, fillerSegments, lateFrame, scanBomb, tinySegments } from "../setup/hostile-jpegs.ts";

const fixture = (name: string) => Deno.readFile(new URL(`../fixtures/${name}`, import.meta.url));

interface Refused {
  filename: string;
  status: number;
  error: string;
}

Deno.test({
  name: "hostile JPEGs are refused at admission by their own rule; the rest of the upload and the server go on",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ WORKERS: "1" });
    try {
      const cookie = await remoteSignUp(server.url, "hostile-uploader");
      const base = await fixture("base.jpg");
      const files: [string, Uint8Array<ArrayBuffer>][] = [
        ["good.jpg", base],
        ["tiny-segments.jpg", tinySegments(base, 2_000_000)], // M1: 8 MB of empty COM segments
        ["late-huge.jpg", lateFrame(base, { width: 10001, height: 10000 })], // M2: 100 MP behind 576 KB
        ["late-small.jpg", lateFrame(base)], // the same shape at the image's own size: accepted
        ["scan-bomb.jpg", scanBomb(base, 300)],
        ["heavy-metadata.jpg", afterSoi(base, ...fillerSegments(70))], // 4.4 MB of APP11 on 128×96
        ["bogus-icc.jpg", bogusIcc(base, 40)], // 2.6 MB of ICC chunks that disagree: accepted, not carried
      ];
      const form = new FormData();
      for (const [name, bytes] of files) form.append("images", new File([bytes], name, { type: "image/jpeg" }));
      form.append("stripMetadata", "false");
      const res = await fetch(`${server.url}/api/compress`, {
        method: "POST",
        headers: { Cookie: cookie },
        body: form,
      });
      assert.equal(res.status, 201, await res.clone().text());
      const { refused, jobs } = await res.json() as { refused: Refused[]; jobs: { id: string; filename: string }[] };
      const byName = Object.fromEntries(refused.map((r) => [r.filename, r]));
      assert.deepEqual(Object.keys(byName).sort(), [
        "heavy-metadata.jpg",
        "late-huge.jpg",
        "scan-bomb.jpg",
        "tiny-segments.jpg",
      ]);
      assert.equal(byName["late-huge.jpg"]!.status, 413);
      assert.match(byName["late-huge.jpg"]!.error, /is 10001×10000 \(100\.0 MP\); the free plan allows 50 MP/);
      assert.equal(byName["tiny-segments.jpg"]!.status, 422);
      assert.match(byName["tiny-segments.jpg"]!.error, /more than 4096 marker segments/);
      assert.equal(byName["scan-bomb.jpg"]!.status, 422);
      assert.match(byName["scan-bomb.jpg"]!.error, /more than 256 scans/);
      assert.equal(byName["heavy-metadata.jpg"]!.status, 413);
      assert.match(byName["heavy-metadata.jpg"]!.error, /4\.4 MB of metadata for a 128×96 image; at most 4\.0 MB/);

      const settled = await remoteWaitForJobs(
        server.url,
        cookie,
        (list) => list.length === files.length && list.every((j) => j.status === "completed" || j.status === "error"),
      );
      const status = Object.fromEntries(settled.map((j) => [j.filename, j.status]));
      for (const ok of ["good.jpg", "late-small.jpg", "bogus-icc.jpg"]) assert.equal(status[ok], "completed", ok);

      // The scheduler saw the real pixels of the file whose frame header is 576 KB in.
      const db = createClient({ url: server.databaseUrl });
      const lateId = jobs.find((j) => j.filename === "late-small.jpg")!.id;
      const row = (await db.execute({ sql: "SELECT pixels FROM jobs WHERE id = ?", args: [lateId] })).rows[0]!;
      assert.equal(Number(row.pixels), 128 * 96);
      db.close();

      // The bogus ICC was not carried into the result.
      const icc = jobs.find((j) => j.filename === "bogus-icc.jpg")!.id;
      const result = await fetch(`${server.url}/api/download/${icc}`, { headers: { Cookie: cookie } });
      assert.ok((await result.arrayBuffer()).byteLength < 100_000);

      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
      const after = new FormData();
      after.append("images", new File([base], "after.jpg", { type: "image/jpeg" }));
      const again = await fetch(`${server.url}/api/compress`, {
        method: "POST",
        headers: { Cookie: cookie },
        body: after,
      });
      assert.equal(again.status, 201);
      await remoteWaitForJobs(
        server.url,
        cookie,
        (list) => list.some((j) => j.filename === "after.jpg" && j.status === "completed"),
      );
    } finally {
      await server.stop();
    }
  },
});

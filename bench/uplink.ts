/**
 * A batch over a real uplink (ADR 056): the run's photos uploaded as one batch at UPLINK_MB_PER_S, as from an
 * office connection, against the same batch sent at loopback speed, on one warm server. Each image's work begins
 * as it arrives, so what a user waits for after the last byte is the work the upload could not hide.
 */
import { type RunningServer, startServer } from "../tests/setup/server-process.ts";
import type { CorpusImage } from "./corpus.ts";
import { batchForm, type Client, premiumClient, uploadAll, waitAllSettled } from "./http.ts";
import { figure } from "./report.ts";

/** 8 MiB/s, about 67 Mbit/s. */
const UPLINK_MB_PER_S = 8;
const CHUNK = 64 * 1024;

/** The batch's multipart body as `uploadAll` sends it, encoded once so that it can be paced. */
async function batchBody(images: CorpusImage[]): Promise<{ bytes: Uint8Array; type: string }> {
  const encoded = new Response(batchForm(images));
  return { bytes: new Uint8Array(await encoded.arrayBuffer()), type: encoded.headers.get("Content-Type")! };
}

/** Uploads the body at `bytesPerSecond`; the job ids once the upload is answered. */
async function pacedUpload(
  server: RunningServer,
  client: Client,
  body: { bytes: Uint8Array; type: string },
  bytesPerSecond: number,
) {
  const start = performance.now();
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= body.bytes.length) return controller.close();
      const wait = start + (sent / bytesPerSecond) * 1000 - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      controller.enqueue(body.bytes.subarray(sent, sent + CHUNK));
      sent += CHUNK;
    },
  });
  const res = await fetch(`${server.url}/api/compress`, {
    method: "POST",
    headers: { Cookie: client.cookie, "Content-Type": body.type, "Content-Length": String(body.bytes.length) },
    body: stream,
  });
  if (res.status !== 201) throw new Error(`compress: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { jobs: { id: string }[] }).jobs.map((j) => j.id);
}

/** Seconds to the upload's answer, then to its last job completed (scores then let finish, off the clock). */
async function timed(client: Client, upload: () => Promise<string[]>) {
  const t = performance.now();
  const ids = await upload();
  const answered = performance.now();
  await waitAllSettled(client, ids);
  const completed = performance.now();
  await waitAllSettled(client, ids, true);
  return { upload: (answered - t) / 1000, after: (completed - answered) / 1000 };
}

export async function uplinkBench(corpus: CorpusImage[], workers: number): Promise<void> {
  const server = await startServer({ WORKERS: String(workers) });
  try {
    const client = await premiumClient(server, "bench-uplink");
    // The workers warm, as on a server that has been up for a while.
    const small = [...corpus].sort((a, b) => a.bytes.length - b.bytes.length).slice(0, 2);
    await waitAllSettled(client, await uploadAll(server, client, small), true);
    const local = await timed(client, () => uploadAll(server, client, corpus));
    const body = await batchBody(corpus);
    const paced = await timed(client, () => pacedUpload(server, client, body, UPLINK_MB_PER_S * 1024 * 1024));
    const mb = (body.bytes.length / 1024 / 1024).toFixed(1);
    figure(
      "uplink_batch_local_wait_after_upload",
      local.after,
      `s (${mb} MB sent over loopback in ${local.upload.toFixed(2)} s)`,
    );
    figure(
      "uplink_batch_wait_after_upload",
      paced.after,
      `s (the same batch at ${UPLINK_MB_PER_S} MB/s: ${paced.upload.toFixed(2)} s of upload, ${
        (paced.upload + paced.after).toFixed(2)
      } s in all)`,
    );
    figure(
      "uplink_batch_wait_vs_local",
      paced.after / local.after,
      "x (the work left after the last byte; about 1 when nothing begins before the upload ends)",
    );
  } finally {
    await server.stop();
  }
}

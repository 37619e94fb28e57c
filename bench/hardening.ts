/**
 * Issue 12's flood figures against a real server process: /healthz latency while
 * one anonymous client sends huge bodies, and one user's GET /api/jobs latency
 * while another user's session floods it. Runs alone with `deno run -A bench/hardening.ts`.
 */
import { type RunningServer, startServer } from "../tests/setup/server-process.ts";
import { type CorpusImage, loadCorpus } from "./corpus.ts";
import { figure } from "./report.ts";
import { registerUser } from "./http.ts";

const MB = 1024 * 1024;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Polls `path` every 20 ms until `stop` resolves; returns the latencies. */
export async function sample(server: RunningServer, path: string, stop: Promise<unknown>, headers: HeadersInit = {}) {
  const latencies: number[] = [];
  let done = false;
  stop.finally(() => done = true);
  while (!done) {
    const t = performance.now();
    const res = await fetch(`${server.url}${path}`, { headers });
    await res.arrayBuffer();
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  return latencies;
}

/** A chunked body of `total` bytes made on demand (no Content-Length, as an attacker would stream it). */
function streamOf(total: number, chunk: Uint8Array): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

const settle = (p: Promise<Response>) => p.then((r) => r.body?.cancel()).catch(() => {});

/** /healthz p99 while 4 clients stream 300 MB to /api/login, and while a million-field upload arrives. */
export async function healthUnderFloods() {
  const server = await startServer({ WORKERS: "1" });
  try {
    const logins = Promise.all(Array.from({ length: 4 }, () =>
      settle(fetch(`${server.url}/api/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: streamOf(300 * MB, new Uint8Array(MB).fill(0x20)),
        duplex: "half",
      } as RequestInit))));
    const during = await sample(server, "/healthz", Promise.all([logins, new Promise((r) => setTimeout(r, 2000))]));
    figure("healthz_p99_during_4x300MB_login_bodies", percentile(during, 99), "ms (target < 200)");

    const cookie = await registerUser(server, "bench-fields");
    const encoder = new TextEncoder();
    const boundary = "----bench";
    let i = 0;
    const fields = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i >= 1_000_000) {
          controller.enqueue(encoder.encode(`--${boundary}--\r\n`));
          return controller.close();
        }
        const lines = [];
        for (let n = 0; n < 1000; n++, i++) {
          lines.push(`--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`);
        }
        controller.enqueue(encoder.encode(lines.join("")));
      },
    });
    const upload = settle(fetch(`${server.url}/api/compress`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: fields,
      duplex: "half",
    } as RequestInit));
    const whileFields = await sample(
      server,
      "/healthz",
      Promise.all([upload, new Promise((r) => setTimeout(r, 2000))]),
    );
    figure("healthz_p99_during_million_field_upload", percentile(whileFields, 99), "ms (target < 200)");
  } finally {
    await server.stop();
  }
}

/** Another user's GET /api/jobs latency while one session runs 100 concurrent polling loops without pause. */
export async function pollFloodLatency(corpus: CorpusImage[]) {
  const server = await startServer({ WORKERS: "1" });
  try {
    const flooder = await registerUser(server, "bench-flooder");
    const calm = await registerUser(server, "bench-calm");
    // Both have a job list to read, as real users would.
    for (const cookie of [flooder, calm]) {
      const form = new FormData();
      for (const image of corpus.slice(0, 5)) {
        form.append("images", new File([image.bytes as Uint8Array<ArrayBuffer>], image.name));
      }
      await settle(fetch(`${server.url}/api/compress`, { method: "POST", headers: { Cookie: cookie }, body: form }));
    }
    let refused = 0, served = 0;
    let running = true;
    const flood = Array.from({ length: 100 }, async () => {
      while (running) {
        const res = await fetch(`${server.url}/api/jobs`, { headers: { Cookie: flooder } });
        await res.arrayBuffer();
        if (res.status === 429) refused++;
        else served++;
      }
    });
    const latencies = await sample(server, "/api/jobs", new Promise((r) => setTimeout(r, 10_000)), { Cookie: calm });
    running = false;
    await Promise.all(flood);
    figure("api_jobs_flood_requests", refused + served, `(${refused} answered 429)`);
    figure("api_jobs_other_user_p50_during_flood", percentile(latencies, 50), "ms");
    figure("api_jobs_other_user_p99_during_flood", percentile(latencies, 99), "ms (target <= 25)");
  } finally {
    await server.stop();
  }
}

if (import.meta.main) {
  await healthUnderFloods();
  await pollFloodLatency(await loadCorpus());
}

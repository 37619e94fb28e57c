/**
 * Unknown API keys cost nothing (issue 29, ADR 028): 200 connections send POST /api/v1/compress with random
 * well-formed keys for 15 s against a real server process, while this thread samples GET /healthz every
 * 20 ms and a valid key of the account asks for a job every 250 ms (within its own rate limit). Twice: the
 * flood from one address, as one attacking machine sends it, then from 200 loopback addresses, where the
 * global limit on failed lookups is what holds. Each 401 is one database lookup (a random key is never in
 * the negative cache); 429 and 503 are refusals from memory. Runs alone with `deno run -A bench/key-flood.ts`.
 */
import { V1 } from "../contract/api-keys.ts";
import { type RunningServer, startServer } from "../tests/setup/server-process.ts";
import type { FloodRequest, FloodResult } from "./key-flood-worker.ts";
import { percentile, sample } from "./hardening.ts";
import { createApiKey, registerUser } from "./http.ts";
import { figure } from "./report.ts";

const CONNECTIONS = 200;
const SECONDS = 15;

function floodOnWorker(request: FloodRequest): Promise<FloodResult> {
  const worker = new Worker(new URL("./key-flood-worker.ts", import.meta.url), { type: "module" });
  return new Promise<FloodResult>((resolve, reject) => {
    worker.onmessage = ({ data }) => data.error ? reject(new Error(data.error)) : resolve(data.result);
    worker.onerror = (e) => reject(e.error ?? new Error(e.message));
    worker.postMessage(request);
  }).finally(() => worker.terminate());
}

/** A known-good key's requests during the flood: GET /api/v1/jobs/:id every 250 ms, each expected 404. */
async function validKeyDuring(server: RunningServer, key: string, stop: Promise<unknown>) {
  const latencies: number[] = [];
  let refused = 0;
  let done = false;
  stop.finally(() => done = true);
  while (!done) {
    const t = performance.now();
    const res = await fetch(`${server.url}${V1.job("none")}`, { headers: { Authorization: `Bearer ${key}` } });
    await res.body?.cancel();
    latencies.push(performance.now() - t);
    if (res.status !== 404) refused++;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { latencies, refused };
}

async function floodOnce(server: RunningServer, key: string, label: string, localAddresses?: string[]) {
  const flood = floodOnWorker({ url: server.url, connections: CONNECTIONS, seconds: SECONDS, localAddresses });
  const [health, valid, result] = await Promise.all([
    sample(server, "/healthz", flood),
    validKeyDuring(server, key, flood),
    flood,
  ]);
  const count = (status: number) => result.statuses[status] ?? 0;
  const total = Object.values(result.statuses).reduce((a, b) => a + b, 0);
  figure(
    `key_flood_${label}_requests`,
    total,
    `in ${SECONDS} s: ${count(401)} answered 401 (a database lookup each), ${count(429)} 429 and ${
      count(503)
    } 503 from memory, ${result.failed} without an answer`,
  );
  figure(`key_flood_${label}_db_lookups_per_second`, count(401) / SECONDS, "/s");
  figure(`key_flood_${label}_healthz_p50`, percentile(health, 50), "ms");
  figure(`key_flood_${label}_healthz_p99`, percentile(health, 99), "ms (target <= 200)");
  figure(
    `key_flood_${label}_valid_key_p99`,
    percentile(valid.latencies, 99),
    `ms (${valid.latencies.length} requests, ${valid.refused} not served)`,
  );
}

export async function keyFloodBench(): Promise<void> {
  const server = await startServer({ WORKERS: "1" });
  try {
    const key = await createApiKey(server, await registerUser(server, "bench-key-flood"));
    await floodOnce(server, key, "one_address");
    const spread = Array.from({ length: CONNECTIONS }, (_, i) => `127.0.${1 + (i >> 8)}.${1 + (i & 0xff)}`);
    await floodOnce(server, key, "200_addresses", spread);
  } finally {
    await server.stop();
  }
}

if (import.meta.main) await keyFloodBench();

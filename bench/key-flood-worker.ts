/**
 * The flood of bench/key-flood.ts, on its own thread so that the flood's own event loop does not delay
 * the /healthz samples the main thread takes: `connections` loops, each sending POST /api/v1/compress
 * with a fresh random well-formed key and an empty body as fast as the server answers. With
 * `localAddresses`, each loop connects from its own loopback address (127.0.0.0/8 is all loopback on
 * Linux), as a flood spread over many clients would.
 */
import { API_KEY_PREFIX, V1 } from "../contract/api-keys.ts";

export interface FloodRequest {
  url: string;
  connections: number;
  seconds: number;
  /** One per connection; absent: every connection from 127.0.0.1. */
  localAddresses?: string[];
}

export interface FloodResult {
  /** Answers by status. */
  statuses: Record<number, number>;
  /** Requests that got no answer (connection errors). */
  failed: number;
}

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** A key shaped like ours (the prefix and 52 base32 characters) that no account holds. */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(52));
  return API_KEY_PREFIX + Array.from(bytes, (b) => BASE32[b & 31]).join("");
}

async function flood({ url, connections, seconds, localAddresses }: FloodRequest): Promise<FloodResult> {
  const statuses: Record<number, number> = {};
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  const clients = localAddresses?.map((localAddress) => Deno.createHttpClient({ localAddress }));
  await Promise.all(Array.from({ length: connections }, async (_, i) => {
    const client = clients?.[i % clients.length];
    while (performance.now() < until) {
      try {
        const res = await fetch(`${url}${V1.compress}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${randomKey()}`, "Content-Type": "image/jpeg" },
          body: new Uint8Array(0),
          client,
        });
        await res.body?.cancel();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      } catch {
        failed++;
      }
    }
  }));
  for (const client of clients ?? []) client.close();
  return { statuses, failed };
}

self.onmessage = async ({ data }: MessageEvent<FloodRequest>) => {
  try {
    self.postMessage({ result: await flood(data) });
  } catch (error) {
    self.postMessage({ error: String((error as Error).stack ?? error) });
  }
};

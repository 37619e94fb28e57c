/** A stand-in for `/api/v1/compress` on a local port: each request goes to `answer`, which sees its attempt number. */
import { V1, V1_HEADERS } from "../../contract/api-keys.ts";

export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  authorization: string | null;
  contentType: string | null;
  bytes: Uint8Array;
  at: number;
  /** Aborts when the fake server closes: an answer that never comes waits for it. */
  closing: AbortSignal;
}

export interface FakeApi {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type Answer = (req: SeenRequest, index: number) => Response | Promise<Response>;

export function startFakeApi(answer: Answer): FakeApi {
  const requests: SeenRequest[] = [];
  const closing = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const seen: SeenRequest = {
      path: url.pathname,
      query: url.searchParams,
      authorization: request.headers.get("authorization"),
      contentType: request.headers.get("content-type"),
      bytes: new Uint8Array(await request.arrayBuffer()),
      at: Date.now(),
      closing: closing.signal,
    };
    requests.push(seen);
    if (seen.path !== V1.compress && seen.path !== V1.restore) {
      return Response.json({ error: "No such route" }, { status: 404 });
    }
    return await answer(seen, requests.length - 1);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    close: () => {
      closing.abort();
      return server.shutdown();
    },
  };
}

/** What the real server answers for a compressed file: `bytes` with the V1 headers. */
export function compressed(bytes: Uint8Array, original: number, extra: Record<string, string> = {}): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": "image/jpeg",
      [V1_HEADERS.count]: "1",
      [V1_HEADERS.width]: "64",
      [V1_HEADERS.height]: "48",
      [V1_HEADERS.originalSize]: String(original),
      [V1_HEADERS.compressedSize]: String(bytes.length),
      [V1_HEADERS.jobId]: crypto.randomUUID(),
      ...extra,
    },
  });
}

/** The V1 headers of a result of `size` bytes, as `compressed` sends them. */
export function resultHeaders(size: number, contentType = "image/jpeg"): Record<string, string> {
  return {
    "Content-Type": contentType,
    [V1_HEADERS.originalSize]: String(size * 4),
    [V1_HEADERS.compressedSize]: String(size),
    [V1_HEADERS.jobId]: crypto.randomUUID(),
  };
}

/** Resolves when `signal` aborts. */
export const untilAborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve()));

/**
 * A 200 that announces a `size`-byte JPEG, sends its first `sent` bytes, then nothing more until the fake
 * server closes; `onSent` is called once those bytes are handed to the connection.
 */
export function stalledResult(req: SeenRequest, size: number, sent: number, onSent?: () => void): Response {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(fakeJpeg(size).subarray(0, sent));
      onSent?.();
      await untilAborted(req.closing);
      try {
        controller.close();
      } catch { /* cancelled with the connection */ }
    },
  });
  return new Response(body, { headers: resultHeaders(size) });
}

/** A small fake "JPEG": SOI and the next marker's FF (what the CLI checks a JPEG starts with), some bytes, EOI. */
export const fakeJpeg = (size = 32): Uint8Array<ArrayBuffer> => {
  const b = new Uint8Array(size).fill(0x42);
  b.set([0xff, 0xd8, 0xff, 0xe0], 0);
  b.set([0xff, 0xd9], size - 2);
  return b;
};

export const KEY = "sq_live_0123456789abcdefghijklmnop";

/**
 * The live preview's Web Worker (a Vite module worker): the project's own codecs and metric from codecs/,
 * nothing copied. The WASM modules come from the files Vite emitted (codecs/browser-wasm.ts); the original is
 * decoded once and kept here. Requests carry a generation number: a request older than the newest one this
 * worker has seen is dropped unstarted (the page also sends at most one at a time, so a moving slider never
 * queues encodes).
 */
import { loadBrowserCodecs } from "../../../../../codecs/browser-wasm.ts";
import { PreviewSession } from "../../../../../codecs/pipeline/preview.ts";
import type { WorkerReply, WorkerRequest } from "./protocol.ts";

/** The dedicated worker's global, typed without the webworker lib (the project checks with dom's). */
const scope = self as unknown as {
  postMessage(message: WorkerReply, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
};
const reply = (message: WorkerReply, transfer: Transferable[] = []) => scope.postMessage(message, transfer);

let session: Promise<PreviewSession> | null = null;
let newest = 0;
let pending: Exclude<WorkerRequest, { type: "open" }> | null = null;
let running = false;

const messageOf = (error: unknown) => error instanceof Error ? error.message : String(error);

async function open(bytes: ArrayBuffer): Promise<void> {
  const started = performance.now();
  session = loadBrowserCodecs().then(() => PreviewSession.open(new Uint8Array(bytes)));
  try {
    const s = await session;
    reply({ type: "opened", width: s.width, height: s.height, ms: performance.now() - started });
  } catch (error) {
    reply({ type: "error", message: messageOf(error) });
  }
}

/** Runs the newest request; older ones that arrived meanwhile were replaced in `pending` and never start. */
async function drain(): Promise<void> {
  if (running) return;
  running = true;
  try {
    // One turn of the event loop first, so messages already queued behind this one are seen.
    await new Promise((resolve) => setTimeout(resolve, 0));
    while (pending) {
      const request = pending;
      pending = null;
      if (request.gen < newest) {
        reply({ type: "dropped", gen: request.gen });
        continue;
      }
      try {
        const s = await session!;
        if (request.type === "crop") {
          const crop = await s.crop(request.settings, request.region, request.chosen);
          const { x, y, width, height } = crop;
          const bytes = crop.bytes.slice().buffer;
          const original = crop.original.data.buffer as ArrayBuffer;
          reply({
            type: "crop",
            gen: request.gen,
            bytes,
            mimeType: crop.mimeType,
            region: { x, y, width, height },
            original,
            imageWidth: crop.imageWidth,
            imageHeight: crop.imageHeight,
            ms: crop.encodeMs,
          }, [bytes, original]);
        } else {
          const { gen } = request;
          const prediction = await s.full(request.settings, (size) => reply({ type: "size", gen, size }));
          reply({ type: "full", gen, prediction });
        }
      } catch (error) {
        reply({ type: "error", gen: request.gen, message: messageOf(error) });
      }
    }
  } finally {
    running = false;
  }
}

scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if (request.type === "open") return void open(request.bytes);
  newest = Math.max(newest, request.gen);
  pending = request;
  void drain();
};

/**
 * The live preview's two lanes, each a Web Worker holding the decoded original: one encodes the visible crop
 * (shown at once), the other the full image with its score (the predicted size and score). Each lane has at
 * most one request in flight and keeps only the newest one waiting: a slider moved quickly replaces its
 * stale requests instead of queueing them, and every request carries a generation number the worker checks.
 */
import type { CompressSettings } from "../../../../../contract/settings.ts";
import type { Chosen, CropRequest, FullPrediction, WorkerReply, WorkerRequest } from "./protocol.ts";

export interface CropView {
  url: string;
  region: CropRequest;
  /** The original's same region as RGBA pixels, painted beside the encode in the split view. */
  original: Uint8ClampedArray<ArrayBuffer>;
  /** The size of the image the region is from: the resized size when the settings resize. */
  imageWidth: number;
  imageHeight: number;
  /** From the request to the image in hand (encode and messaging), ms. */
  ms: number;
  gen: number;
}

export interface PreviewState {
  status: "loading" | "ready" | "error";
  error: string | null;
  width: number;
  height: number;
  crop: CropView | null;
  full: (FullPrediction & { gen: number; roundTripMs: number }) | null;
  /** The full-size file's size, known before its score (its measurement follows). */
  size: { gen: number; size: number; roundTripMs: number } | null;
  /** The newest settings' full-size result is still coming. */
  fullPending: boolean;
}

type LaneRequest = Exclude<WorkerRequest, { type: "open" }>;

export type LaneWorker = Pick<Worker, "postMessage" | "terminate"> & { onmessage: Worker["onmessage"] };

export class Lane {
  private busy = false;
  private current: LaneRequest | null = null;
  private waiting: LaneRequest | null = null;
  readonly sentAt = new Map<number, number>();

  constructor(public worker: LaneWorker) {}

  send(request: LaneRequest): void {
    if (this.busy) {
      this.waiting = request; // the stale one it replaces is never sent
      return;
    }
    this.busy = true;
    this.current = request;
    this.sentAt.set(request.gen, performance.now());
    this.worker.postMessage(request);
  }

  /** A reply ended the request in flight: send the newest waiting one, if any. */
  settled(): void {
    this.busy = false;
    this.current = null;
    const next = this.waiting;
    this.waiting = null;
    if (next) this.send(next);
  }

  /** The request in flight, if any. */
  get running(): LaneRequest | null {
    return this.current;
  }

  /**
   * Drops the request in flight with its worker: `worker` (sent `open` first, so it decodes the original
   * again) takes the newest waiting request at once.
   */
  restart(worker: LaneWorker, open: WorkerRequest, transfer: Transferable[] = []): void {
    this.worker.terminate();
    this.worker = worker;
    worker.postMessage(open, transfer);
    this.settled();
  }

  get idle(): boolean {
    return !this.busy && this.waiting === null;
  }
}

const newWorker = () =>
  new Worker(new URL("./live-preview.worker.ts", import.meta.url), { type: "module", name: "live-preview" });

export class PreviewEngine {
  private state: PreviewState = {
    status: "loading",
    error: null,
    width: 0,
    height: 0,
    crop: null,
    full: null,
    size: null,
    fullPending: false,
  };
  private listeners = new Set<() => void>();
  private readonly crop = new Lane(newWorker());
  private readonly fullLane = new Lane(newWorker());
  private gen = 0;
  private opened = 0;
  private closed = false;
  /** A copy of the original, for a full-size worker started afresh (restartFull). */
  private original: ArrayBuffer | null = null;

  constructor(original: Promise<ArrayBuffer>) {
    this.crop.worker.onmessage = (e: MessageEvent<WorkerReply>) => this.onCrop(e.data);
    this.fullLane.worker.onmessage = (e: MessageEvent<WorkerReply>) => this.onFull(e.data);
    original.then((bytes) => {
      if (this.closed) return;
      this.original = bytes.slice(0);
      // One copy per worker: the original is fetched once.
      this.crop.worker.postMessage({ type: "open", bytes: bytes.slice(0) } satisfies WorkerRequest);
      this.fullLane.worker.postMessage({ type: "open", bytes } satisfies WorkerRequest, [bytes]);
    }, (error) => this.set({ status: "error", error: String(error instanceof Error ? error.message : error) }));
  }

  get snapshot(): PreviewState {
    return this.state;
  }

  subscribe = (listener: () => void): () => void => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<PreviewState>): void {
    if (this.closed) return;
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  /** The visible region with these settings (shown first), then the whole image's size and score. */
  update(settings: CompressSettings, region: CropRequest, chosen?: Chosen, full = true): void {
    const gen = ++this.gen;
    this.crop.send({ type: "crop", gen, settings, region, chosen });
    if (full) {
      const running = this.fullLane.running;
      this.fullLane.send({ type: "full", gen, settings });
      // A target's search makes several full-size encodes (seconds): stop it with its worker instead of waiting.
      if (running?.type === "full" && running.settings.target !== null) this.restartFull();
      this.set({ fullPending: true });
    }
  }

  private restartFull(): void {
    if (!this.original) return;
    const worker = newWorker();
    worker.onmessage = (e: MessageEvent<WorkerReply>) => this.onFull(e.data);
    const bytes = this.original.slice(0);
    this.fullLane.restart(worker, { type: "open", bytes }, [bytes]);
  }

  /** Only the visible region moved: the full-size figures stay. */
  pan(settings: CompressSettings, region: CropRequest, chosen?: Chosen): void {
    this.update(settings, region, chosen, false);
  }

  private onOpened(reply: Extract<WorkerReply, { type: "opened" }>): void {
    if (++this.opened === 2) this.set({ status: "ready", width: reply.width, height: reply.height });
  }

  private onCrop(reply: WorkerReply): void {
    if (reply.type === "opened") return this.onOpened(reply);
    if (reply.type === "error" && reply.gen === undefined) return this.set({ status: "error", error: reply.message });
    this.crop.settled();
    if (reply.type !== "crop") return;
    const sent = this.crop.sentAt.get(reply.gen) ?? performance.now();
    this.crop.sentAt.delete(reply.gen);
    // A crop older than the one shown (not possible with one in flight, but cheap to hold) is dropped.
    if (this.state.crop && this.state.crop.gen > reply.gen) return;
    if (this.state.crop) URL.revokeObjectURL(this.state.crop.url);
    const url = URL.createObjectURL(new Blob([reply.bytes], { type: reply.mimeType }));
    this.set({
      crop: {
        url,
        region: reply.region,
        original: new Uint8ClampedArray(reply.original),
        imageWidth: reply.imageWidth,
        imageHeight: reply.imageHeight,
        ms: performance.now() - sent,
        gen: reply.gen,
      },
    });
  }

  private onFull(reply: WorkerReply): void {
    if (reply.type === "opened") return this.onOpened(reply);
    if (reply.type === "error" && reply.gen === undefined) return this.set({ status: "error", error: reply.message });
    if (reply.type === "size") {
      const sent = this.fullLane.sentAt.get(reply.gen) ?? performance.now();
      return this.set({ size: { gen: reply.gen, size: reply.size, roundTripMs: performance.now() - sent } });
    }
    this.fullLane.settled();
    const sent = reply.type === "error" || reply.type === "dropped" ? undefined : this.fullLane.sentAt.get(reply.gen);
    if (reply.type === "full") {
      this.fullLane.sentAt.delete(reply.gen);
      if (reply.gen >= (this.state.full?.gen ?? 0)) {
        this.set({
          full: { ...reply.prediction, gen: reply.gen, roundTripMs: performance.now() - (sent ?? performance.now()) },
        });
      }
    } else if (reply.type === "error") {
      this.set({ error: reply.message });
    }
    this.set({ fullPending: !this.fullLane.idle });
  }

  close(): void {
    if (this.state.crop) URL.revokeObjectURL(this.state.crop.url);
    this.closed = true;
    this.crop.worker.terminate();
    this.fullLane.worker.terminate();
  }
}

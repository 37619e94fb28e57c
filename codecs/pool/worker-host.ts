/**
 * The pool's side of host-worker.ts: hands out codec workers as MessagePort
 * handles, so starting and stopping them never blocks the calling thread.
 */
import type { FromHost, FromWorker, ToHost, ToWorker } from "./protocol.ts";

export interface CodecWorker {
  postMessage(message: ToWorker, transfer?: Transferable[]): void;
  /** Stops the worker; its late messages are dropped. */
  terminate(): void;
}

export interface WorkerEvents {
  onMessage(message: FromWorker): void;
  /** An uncaught error ended the worker. */
  onCrash(): void;
}

export interface WorkerHost {
  spawn(events: WorkerEvents): CodecWorker;
  /** Terminates every worker and the host. */
  close(): Promise<void>;
}

const HOST_URL = new URL("./host-worker.ts", import.meta.url).href;

/** `spares`: workers kept started ahead, so a replacement starts at once. */
export function createWorkerHost(spares: number): WorkerHost {
  const host = new Worker(HOST_URL, { type: "module" });
  const live = new Map<number, { port: MessagePort; events: WorkerEvents }>();
  let nextId = 1;
  let closed: (() => void) | null = null;
  const send = (message: ToHost, transfer: Transferable[] = []) => host.postMessage(message, transfer);

  const end = (id: number) => {
    live.get(id)?.port.close();
    live.delete(id);
  };

  host.onmessage = (event: MessageEvent<FromHost>) => {
    const message = event.data;
    if (message.type === "closed") return closed?.();
    const worker = live.get(message.id);
    end(message.id);
    worker?.events.onCrash();
  };

  send({ type: "spares", count: spares });

  return {
    spawn(events) {
      const id = nextId++;
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = (event: MessageEvent<FromWorker>) => events.onMessage(event.data);
      live.set(id, { port: port1, events });
      send({ type: "spawn", id, port: port2 }, [port2]);
      return {
        postMessage: (message, transfer = []) => port1.postMessage(message, transfer),
        terminate() {
          if (!live.has(id)) return;
          end(id);
          send({ type: "terminate", id });
        },
      };
    },
    close() {
      for (const id of [...live.keys()]) end(id);
      return new Promise<void>((resolve) => {
        closed = () => {
          host.terminate();
          resolve();
        };
        send({ type: "close" });
      });
    },
  };
}

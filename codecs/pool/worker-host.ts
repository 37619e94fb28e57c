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

export interface WorkerHostOptions {
  /** Workers kept started ahead, so a replacement starts at once. */
  spares: number;
  /** The host module (host-worker.ts, or a module that runs it). */
  hostUrl: string;
  /** The codec worker module the host starts (worker.ts, or a module speaking its protocol). */
  workerUrl: string;
}

export function createWorkerHost({ spares, hostUrl, workerUrl }: WorkerHostOptions): WorkerHost {
  const live = new Map<number, { port: MessagePort; events: WorkerEvents }>();
  let nextId = 1;
  let closed: (() => void) | null = null;
  let host = startHost();

  function startHost(): Worker {
    const worker = new Worker(hostUrl, { type: "module" });
    worker.onmessage = (event: MessageEvent<FromHost>) => {
      const message = event.data;
      if (message.type === "closed") return closed?.();
      crashed(message.id);
    };
    // Should the host itself die, its codec workers die with it: each one's job fails as a
    // crash, and a new host serves the replacements.
    worker.onerror = (error) => {
      error.preventDefault();
      worker.terminate();
      if (closed) return closed();
      host = startHost();
      for (const id of [...live.keys()]) crashed(id);
    };
    worker.postMessage({ type: "start", workerUrl, spares } satisfies ToHost);
    return worker;
  }

  function crashed(id: number) {
    const worker = live.get(id);
    end(id);
    worker?.events.onCrash();
  }

  function end(id: number) {
    live.get(id)?.port.close();
    live.delete(id);
  }

  const send = (message: ToHost, transfer: Transferable[] = []) => host.postMessage(message, transfer);

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

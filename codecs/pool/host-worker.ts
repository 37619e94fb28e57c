/// <reference lib="deno.worker" />
/**
 * Starts and stops codec workers off the main thread. `new Worker()` blocks
 * its caller until the new thread has built its runtime (20-70 ms measured
 * with both cores busy); done on the server's thread, every recycled worker
 * stalled the requests in flight. The pool and each codec worker talk over
 * their own MessagePort; this worker only sees spawn, terminate and crashes.
 */
import { lowerThreadPriority } from "../libc.ts";
import { compileCodecs, type CompiledModules } from "../wasm.ts";
import type { ConnectWorker, FromHost, ToHost, WarmWorker } from "./protocol.ts";

// Threads inherit their creator's priority: codec workers then build their runtime at nice 10 too.
lowerThreadPriority();

/**
 * Compiled once here and posted to every codec worker (see wasm.ts). Messages
 * wait for it; should it fail, each worker compiles its own as before.
 */
let modules: CompiledModules = {};
const compiling = compileCodecs().then((compiled) => void (modules = compiled), () => {});

/** The codec worker module, from the pool's `start` message (its `workerUrl` option). */
let workerUrl = "";
const workers = new Map<number, Worker>();
/**
 * Started ahead and kept waiting for a port. A worker started from a worker
 * receives its first message about 0.5 s late (Deno 2.9, measured; idle
 * waiting, not work), later ones at once: each spare is sent `warm` when
 * started, so it is ready the moment it is taken.
 */
const spares: Worker[] = [];
let spareCount = 0;
const post = (message: FromHost) => self.postMessage(message);

const startWorker = (): Worker => {
  const worker = new Worker(workerUrl, { type: "module" });
  worker.postMessage({ type: "warm", modules } satisfies WarmWorker);
  return worker;
};

const topUp = () => {
  while (spares.length < spareCount) spares.push(startWorker());
};

// Handlers run in arrival order once the codecs are compiled.
self.onmessage = (event: MessageEvent<ToHost>) => void compiling.then(() => handle(event.data));

function handle(message: ToHost) {
  if (message.type === "start") {
    workerUrl = message.workerUrl;
    spareCount = message.spares;
    topUp();
  } else if (message.type === "spawn") {
    const worker = spares.shift() ?? startWorker();
    worker.onerror = (error) => {
      error.preventDefault(); // a crash fails its own job, never the host or the process
      worker.terminate();
      if (workers.get(message.id) === worker) workers.delete(message.id);
      post({ type: "crashed", id: message.id });
    };
    worker.postMessage({ type: "connect", port: message.port } satisfies ConnectWorker, [message.port]);
    workers.set(message.id, worker);
    // After the spawn is served, so a burst of replacements is not held up by new spares.
    setTimeout(topUp);
  } else if (message.type === "terminate") {
    workers.get(message.id)?.terminate();
    workers.delete(message.id);
  } else {
    for (const worker of [...workers.values(), ...spares]) worker.terminate();
    workers.clear();
    spares.length = 0;
    spareCount = 0;
    post({ type: "closed" });
  }
}

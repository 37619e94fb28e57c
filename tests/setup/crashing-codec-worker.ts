/// <reference lib="deno.worker" />
/**
 * The real codec worker (codecs/pool/worker.ts), except that a compress task whose bytes are
 * `crashingInput()` ends the worker with an uncaught error, as a codec that blows up would.
 * Passed to the pool as `workerUrl` (tests/setup/pool-faults.ts).
 */
import "../../codecs/pool/worker.ts";
import type { ConnectWorker, ToWorker, WarmWorker } from "../../codecs/pool/protocol.ts";
import { CRASH_MARKER } from "./pool-faults.ts";

const real = self.onmessage!;

self.onmessage = (event: MessageEvent<WarmWorker | ConnectWorker>) => {
  real.call(self, event);
  if (event.data.type !== "connect") return;
  // The real worker has just put its task handler on the port: each task passes here first.
  const port = event.data.port;
  const serve = port.onmessage!;
  port.onmessage = (task: MessageEvent<ToWorker>) => {
    if (isCrashingTask(task.data)) throw new Error("The test's codec crashed on the input it was given");
    serve.call(port, task);
  };
};

function isCrashingTask(task: ToWorker): boolean {
  return task.type === "compress" && task.bytes instanceof Uint8Array &&
    new TextDecoder().decode(task.bytes) === CRASH_MARKER;
}

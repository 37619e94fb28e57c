/**
 * Faults for the codec pool, injected through its construction options as a real fault would
 * arrive: `workerUrl` names a codec worker that crashes on one chosen input, `hostUrl` a host
 * worker that crashes when told so from outside. Both run the real modules for everything else.
 */

/** A codec worker (the real one) that dies with an uncaught error on `crashingInput()`. */
export const CRASHING_WORKER_URL = new URL("./crashing-codec-worker.ts", import.meta.url);
/** A host worker (the real one) that dies with an uncaught error on `crashTheHostWorkers()`. */
export const CRASHING_HOST_URL = new URL("./crashing-host-worker.ts", import.meta.url);

export const CRASH_MARKER = "crash the codec worker";
export const HOST_CRASH_CHANNEL = "tests/setup/pool-faults: crash the host";

/** The input on which a crashing codec worker dies while it holds the job. */
export function crashingInput(): Uint8Array {
  return new TextEncoder().encode(CRASH_MARKER);
}

/** Makes every crashing host worker running now die (one message on a BroadcastChannel). */
export function crashTheHostWorkers(): void {
  const channel = new BroadcastChannel(HOST_CRASH_CHANNEL);
  channel.postMessage("crash");
  channel.close();
}

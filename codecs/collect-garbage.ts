/**
 * A full garbage collection on demand, where the host allows one. A WASM memory can neither shrink nor be
 * detached: the only way to give a grown codec heap back is to drop its instance and have V8 collect it, and
 * left alone V8 collects it late (a 20 MP AVIF job kept its dropped encoder's 480 MB through the decode that
 * followed; codecs/README.md, "AVIF", Memory). The server's codec worker installs V8's `gc` (pool/worker.ts);
 * elsewhere (the browser's live preview, tests) this does nothing.
 */
import v8 from "node:v8";
import vm from "node:vm";

let collector: () => void = () => {};

/**
 * V8's full collection for the calling thread, or null where the runtime refuses it. The flag is process-wide;
 * a context made after it has `gc`. Used by the codec workers and by the server's thread (ADR 051).
 */
export function fullCollection(): (() => void) | null {
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    return typeof gc === "function" ? () => gc() : null;
  } catch {
    return null;
  }
}

export function setGarbageCollector(collect: () => void): void {
  collector = collect;
}

/**
 * Collects once the caller's frames are off the stack: collected from inside them, V8 still found a dropped
 * instance (a 13.4 MP encoder's 480 MB stayed through the decode that followed).
 */
export async function collectGarbageSoon(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  collector();
}

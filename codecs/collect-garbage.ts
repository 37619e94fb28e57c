/**
 * A full garbage collection on demand, where the host allows one. A WASM memory can neither shrink nor be
 * detached: the only way to give a grown codec heap back is to drop its instance and have V8 collect it, and
 * left alone V8 collects it late (a 20 MP AVIF job kept its dropped encoder's 480 MB through the decode that
 * followed; codecs/README.md, "AVIF", Memory). The server's codec worker installs V8's `gc` (pool/worker.ts);
 * elsewhere (the browser's live preview, tests) this does nothing.
 */
let collector: () => void = () => {};

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

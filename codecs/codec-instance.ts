/**
 * One codec's emscripten instance: made on first use and reused, dropped after a call that throws (a trap
 * leaves it unusable) or that left its heap over `keepHeapBytes` (then collected at once). A heap never
 * shrinks: a large image's encoder heap kept beside the next step's (decoder, metric) is what made a 20 MP
 * AVIF job peak at 1.5 GB (codecs/README.md, "AVIF", Memory).
 */
import { collectGarbageSoon } from "./collect-garbage.ts";
import { forgetHeap, heapBytesOf } from "./wasm.ts";

/** Every codec instance of this thread, for `releaseCodecHeaps`. */
const instances = new Set<CodecInstance<unknown>>();

/**
 * Between jobs: drops every instance whose heap is over `keepHeapBytes`, so that an idle worker does not hold
 * the largest heaps its last job grew. The caller collects (collect-garbage.ts). True when one was dropped.
 */
export function releaseCodecHeaps(keepHeapBytes: number): boolean {
  let dropped = false;
  for (const instance of instances) dropped = instance.release(keepHeapBytes) || dropped;
  return dropped;
}

/** The bytes `releaseCodecHeaps(keepHeapBytes)` would give back now. */
export function releasableCodecHeapBytes(keepHeapBytes: number): number {
  let bytes = 0;
  for (const instance of instances) bytes += instance.heapOver(keepHeapBytes);
  return bytes;
}

export class CodecInstance<Api> {
  #module: WebAssembly.Module | null = null;
  #api: Api | null = null;
  #making: Promise<void> | null = null;

  constructor(
    private readonly compile: () => Promise<WebAssembly.Module>,
    private readonly instantiate: (module: WebAssembly.Module) => Promise<Api>,
    private readonly keepHeapBytes: number,
  ) {
    instances.add(this as CodecInstance<unknown>);
  }

  /** Its heap's bytes when over `keepHeapBytes` (what `release` would drop), else 0. */
  heapOver(keepHeapBytes: number): number {
    const bytes = this.#api && this.#module ? heapBytesOf(this.#module) : 0;
    return bytes > keepHeapBytes ? bytes : 0;
  }

  /** Drops the instance if its heap is over `keepHeapBytes`; never during a call (calls are synchronous). */
  release(keepHeapBytes: number): boolean {
    const module = this.#module;
    if (this.heapOver(keepHeapBytes) === 0 || !module) return false;
    this.#api = null;
    this.#module = null;
    forgetHeap(module);
    return true;
  }

  /** Drops the instance now, whatever its heap, and collects it. */
  async releaseNow(): Promise<void> {
    if (this.release(0)) await collectGarbageSoon();
  }

  /**
   * Runs one synchronous call on the instance, made first if there is none; a heap the call left over the
   * limit is dropped and collected.
   */
  async run<R>(call: (api: Api) => R): Promise<R> {
    await this.#ready();
    const result = this.#callNow(call);
    if (this.release(this.keepHeapBytes)) await collectGarbageSoon();
    return result;
  }

  async #ready(): Promise<void> {
    if (this.#api) return;
    this.#making ??= (async () => {
      const module = await this.compile();
      this.#api = await this.instantiate(module);
      this.#module = module;
    })().finally(() => (this.#making = null));
    await this.#making;
  }

  #callNow<R>(call: (api: Api) => R): R {
    try {
      return call(this.#api!);
    } catch (error) {
      // Its heap stays counted until the next instance replaces it: the pool recycles a worker after a codec
      // error anyway.
      this.#api = null;
      this.#module = null;
      throw error;
    }
  }
}

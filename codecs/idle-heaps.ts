/**
 * What a codec worker gives back between jobs: every codec heap and the metric's over `IDLE_KEEP_HEAP_BYTES`.
 * A WASM heap grows with the largest image and never shrinks, so an idle worker kept what its last job grew
 * (up to the pool's 160 MiB recycling threshold each) beside the other worker's job. A small heap is kept:
 * making it again costs the next job its page faults. When: pool/heaps-between-jobs.ts.
 */
import { releasableCodecHeapBytes, releaseCodecHeaps } from "./codec-instance.ts";
import { collectGarbageSoon } from "./collect-garbage.ts";
import { releasableMetricHeapBytes, releaseMetricHeap } from "./quality/ssimulacra2.ts";
import { takeHeapsForgotten, wasmHeapBytes } from "./wasm.ts";

const IDLE_KEEP_HEAP_BYTES = 48 * 2 ** 20;

/** True when a heap was dropped: the caller collects it once the job's frames are off the stack. */
export function releaseIdleHeaps(): boolean {
  const codecs = releaseCodecHeaps(IDLE_KEEP_HEAP_BYTES);
  return releaseMetricHeap(IDLE_KEEP_HEAP_BYTES) || codecs;
}

/** `releaseIdleHeaps`, then the collection that frees what it dropped (off the caller's frames). */
export async function giveBackIdleHeaps(): Promise<void> {
  if (releaseIdleHeaps()) await collectGarbageSoon();
}

/**
 * For a worker gone idle: `giveBackIdleHeaps`, collecting also when an earlier job dropped a heap while it still
 * held a view of it (ADR 053: a WebP job's JPEG decoder, 87 MB at 20 MP). Not between jobs: a collection before
 * each job cost the fixed path about a tenth of its time on the validation set.
 */
export async function giveBackHeapsWhenIdle(): Promise<void> {
  const dropped = releaseIdleHeaps();
  if (takeHeapsForgotten() || dropped) await collectGarbageSoon();
}

/**
 * What this thread will hold once `releaseIdleHeaps` has run: the small heaps, and those it cannot give back
 * (libjxl's, which only recycling the worker frees).
 */
export const heldWhenIdle = (): number =>
  wasmHeapBytes() - releasableCodecHeapBytes(IDLE_KEEP_HEAP_BYTES) - releasableMetricHeapBytes(IDLE_KEEP_HEAP_BYTES);

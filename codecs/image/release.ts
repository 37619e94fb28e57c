/**
 * Frees an image's pixels at once. Dropping the last reference leaves the
 * buffer to V8's next garbage collection, which in a job's few seconds often
 * never comes, so each decoded copy would stay in the job's peak; detaching
 * the buffer releases its memory immediately (measured in
 * docs/decisions/009-job-memory-and-page-faults.md). The image must not be read
 * afterwards; its width and height stay.
 */
import type { RgbaImage } from "../jpeg/decode.ts";

/** Buffers that belong to a codec's heap (pixels lent, not copied out): theirs to reuse, not ours to free. */
const lent = new WeakSet<ArrayBufferLike>();

/** Marks pixels that live in a codec's heap, which `releasePixels` must leave alone. */
export function lendPixels(data: Uint8ClampedArray): void {
  lent.add(data.buffer);
}

export function releasePixels(image: RgbaImage): void {
  const buffer = image.data.buffer as ArrayBuffer;
  if (!buffer.detached && !lent.has(buffer)) buffer.transfer(0);
}

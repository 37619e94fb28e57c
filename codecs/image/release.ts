/**
 * Frees an image's pixels at once. Dropping the last reference leaves the
 * buffer to V8's next garbage collection, which in a job's few seconds often
 * never comes, so each decoded copy would stay in the job's peak; detaching
 * the buffer releases its memory immediately (measured in
 * docs/decisions/009-job-memory-and-page-faults.md). The image must not be read
 * afterwards; its width and height stay.
 */
import type { RgbaImage } from "../jpeg/decode.ts";

export function releasePixels(image: RgbaImage): void {
  const buffer = image.data.buffer as ArrayBuffer;
  if (!buffer.detached) buffer.transfer(0);
}

/**
 * An ICC profile split over APP2 chunks (ICC.1, annex B.4): each chunk says its
 * sequence number (from 1) and the chunk count, and the joined profile starts
 * with its own size. A set that disagrees with itself is not carried: viewers
 * ignore such a profile anyway, and it could be megabytes of anything.
 */
import type { Segment } from "./jpeg-segments.ts";

const HEADER = 14; // "ICC_PROFILE\0", sequence number, chunk count

export function iccChunksValid(chunks: Segment[]): boolean {
  const count = chunks[0]?.payload[HEADER - 1];
  if (!count || chunks.length !== count) return false;
  const seen = new Set<number>();
  let total = 0;
  for (const { payload } of chunks) {
    const seq = payload[HEADER - 2]!;
    if (payload.length <= HEADER || payload[HEADER - 1] !== count || seq < 1 || seq > count || seen.has(seq)) {
      return false;
    }
    seen.add(seq);
    total += payload.length - HEADER;
  }
  const first = chunks.find((c) => c.payload[HEADER - 2] === 1)!.payload;
  if (first.length < HEADER + 4) return false;
  const declared =
    ((first[HEADER]! << 24) | (first[HEADER + 1]! << 16) | (first[HEADER + 2]! << 8) | first[HEADER + 3]!) >>> 0;
  return declared === total;
}

/** The whole profile from its chunks (already checked by `iccChunksValid`), in sequence order. */
export function joinIcc(chunks: Segment[]): Uint8Array {
  const ordered = [...chunks].sort((a, b) => a.payload[HEADER - 2]! - b.payload[HEADER - 2]!);
  const out = new Uint8Array(ordered.reduce((n, c) => n + c.payload.length - HEADER, 0));
  let at = 0;
  for (const { payload } of ordered) {
    out.set(payload.subarray(HEADER), at);
    at += payload.length - HEADER;
  }
  return out;
}

/**
 * Walks a JPEG's marker segments without decoding pixels. Entropy-coded data
 * is skipped by looking for the next real marker, so the walk also tells
 * whether the file reaches its end-of-image marker.
 */
export const SOI = 0xd8;
export const EOI = 0xd9;
export const SOS = 0xda;
export const COM = 0xfe;
export const APP0 = 0xe0;

export interface Segment {
  marker: number;
  /** Offset of the 0xFF that starts the marker. */
  start: number;
  /** Offset just past the segment (header only, for SOS). */
  end: number;
  /** Payload without marker and length bytes. */
  payload: Uint8Array;
}

export interface SegmentWalk {
  segments: Segment[];
  scanCount: number;
  /** True when an EOI marker was found after at least one scan. */
  complete: boolean;
  /** Where the walk stopped: "eoi", or why it could not continue. */
  stop: "eoi" | "end-in-header" | "end-in-scan" | "bad-marker";
}

const isStandalone = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd7);

function skipEntropyData(bytes: Uint8Array, from: number): number {
  let pos = from;
  while (true) {
    const ff = bytes.indexOf(0xff, pos);
    if (ff < 0 || ff + 1 >= bytes.length) return -1;
    const next = bytes[ff + 1]!;
    // 0xFF00 is a stuffed byte, RSTn markers live inside the scan, 0xFFFF is fill.
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
      pos = ff + 1;
      continue;
    }
    return ff;
  }
}

export function walkSegments(bytes: Uint8Array): SegmentWalk {
  const segments: Segment[] = [];
  let pos = 2; // after SOI
  let scanCount = 0;
  while (pos < bytes.length) {
    if (bytes[pos] !== 0xff) return { segments, scanCount, complete: false, stop: "bad-marker" };
    while (bytes[pos] === 0xff) pos++; // fill bytes
    if (pos >= bytes.length) break;
    const marker = bytes[pos]!;
    const start = pos - 1;
    pos++;
    if (marker === EOI) return { segments, scanCount, complete: scanCount > 0, stop: "eoi" };
    if (isStandalone(marker)) continue;
    if (pos + 2 > bytes.length) break;
    const length = (bytes[pos]! << 8) | bytes[pos + 1]!;
    if (length < 2) return { segments, scanCount, complete: false, stop: "bad-marker" };
    const end = pos + length;
    if (end > bytes.length) break;
    segments.push({ marker, start, end, payload: bytes.subarray(pos + 2, end) });
    pos = end;
    if (marker === SOS) {
      scanCount++;
      const next = skipEntropyData(bytes, pos);
      if (next < 0) return { segments, scanCount, complete: false, stop: "end-in-scan" };
      pos = next;
    }
  }
  return { segments, scanCount, complete: false, stop: scanCount > 0 ? "end-in-scan" : "end-in-header" };
}

export function startsWithAscii(payload: Uint8Array, text: string): boolean {
  if (payload.length < text.length) return false;
  for (let i = 0; i < text.length; i++) if (payload[i] !== text.charCodeAt(i)) return false;
  return true;
}

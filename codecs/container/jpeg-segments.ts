/**
 * Walks a JPEG's marker segments without decoding pixels. Entropy-coded data
 * is skipped by looking for the next real marker, so the walk also tells
 * whether the file reaches its end-of-image marker.
 *
 * Hostile files can hold millions of tiny segments (ADR 027): the walk keeps
 * nothing per segment itself, and `walkSegments` stops at STRUCTURE_LIMITS.
 */
import { CodecError } from "../errors.ts";

export const SOI = 0xd8;
export const EOI = 0xd9;
export const SOS = 0xda;
export const COM = 0xfe;
export const APP0 = 0xe0;

/**
 * What a JPEG's structure may hold. Real photos carry tens of segments (255 ICC
 * chunks at the very most) and fewer than 20 scans; beyond these a file costs
 * memory and decode passes out of proportion to its image.
 */
export const STRUCTURE_LIMITS = {
  /** Marker segments in the whole file, scans included. */
  segments: 4096,
  /** Scans (SOS segments): each is a decode pass over the image. */
  scans: 256,
} as const;

export interface Segment {
  marker: number;
  /** Offset of the 0xFF that starts the marker. */
  start: number;
  /** Offset just past the segment (header only, for SOS). */
  end: number;
  /** Payload without marker and length bytes. */
  payload: Uint8Array;
}

export type WalkStop = "eoi" | "end-in-header" | "end-in-scan" | "bad-marker";

export interface SegmentWalk {
  segments: Segment[];
  scanCount: number;
  /** True when an EOI marker was found after at least one scan. */
  complete: boolean;
  /** Where the walk stopped: "eoi", or why it could not continue. */
  stop: WalkStop;
}

/**
 * Called per segment with its marker, the offset of its 0xFF, where its payload
 * starts and where it ends (header only, for SOS); `false` stops the walk.
 */
export type SegmentVisitor = (marker: number, start: number, payloadStart: number, end: number) => boolean | void;

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

/** The one walk: visits each segment in file order, allocating nothing per segment. */
export function visitSegments(
  bytes: Uint8Array,
  visit: SegmentVisitor,
): { scanCount: number; complete: boolean; stop: WalkStop | "stopped" } {
  let pos = 2; // after SOI
  let scanCount = 0;
  while (pos < bytes.length) {
    if (bytes[pos] !== 0xff) return { scanCount, complete: false, stop: "bad-marker" };
    while (bytes[pos] === 0xff) pos++; // fill bytes
    if (pos >= bytes.length) break;
    const marker = bytes[pos]!;
    const start = pos - 1;
    pos++;
    if (marker === EOI) return { scanCount, complete: scanCount > 0, stop: "eoi" };
    if (isStandalone(marker)) continue;
    if (pos + 2 > bytes.length) break;
    const length = (bytes[pos]! << 8) | bytes[pos + 1]!;
    if (length < 2) return { scanCount, complete: false, stop: "bad-marker" };
    const end = pos + length;
    if (end > bytes.length) break;
    if (marker === SOS) scanCount++;
    if (visit(marker, start, pos + 2, end) === false) return { scanCount, complete: false, stop: "stopped" };
    pos = end;
    if (marker === SOS) {
      const next = skipEntropyData(bytes, pos);
      if (next < 0) return { scanCount, complete: false, stop: "end-in-scan" };
      pos = next;
    }
  }
  return { scanCount, complete: false, stop: scanCount > 0 ? "end-in-scan" : "end-in-header" };
}

/**
 * The segments of a whole file, for the pipeline. Refuses (`corrupt_image`) a
 * file past STRUCTURE_LIMITS before it holds more than that many segments.
 */
export function walkSegments(bytes: Uint8Array): SegmentWalk {
  const segments: Segment[] = [];
  let scans = 0;
  const walk = visitSegments(bytes, (marker, start, payloadStart, end) => {
    if (marker === SOS) scans++;
    if (segments.length >= STRUCTURE_LIMITS.segments || scans > STRUCTURE_LIMITS.scans) return false;
    segments.push({ marker, start, end, payload: bytes.subarray(payloadStart, end) });
  });
  if (walk.stop === "stopped") throw structureRefusal(scans > STRUCTURE_LIMITS.scans ? "scans" : "segments");
  return { segments, scanCount: walk.scanCount, complete: walk.complete, stop: walk.stop };
}

/** The refusal of a file past one of STRUCTURE_LIMITS, in the product's words. */
export function structureRefusal(what: "segments" | "scans"): CodecError {
  const message = what === "scans"
    ? `The file has more than ${STRUCTURE_LIMITS.scans} scans; photos have fewer than 20, and each scan is a pass over the whole image`
    : `The file has more than ${STRUCTURE_LIMITS.segments} marker segments; photos have fewer than 300`;
  return new CodecError("corrupt_image", `Cannot decode the image: ${lowerFirst(message)}`);
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

export function startsWithAscii(payload: Uint8Array, text: string): boolean {
  if (payload.length < text.length) return false;
  for (let i = 0; i < text.length; i++) if (payload[i] !== text.charCodeAt(i)) return false;
  return true;
}

/**
 * Just enough ISO base media file format (ISO/IEC 14496-12) to edit the boxes of an AVIF we wrote ourselves
 * (avif-metadata.ts): read a run of boxes, read and write big-endian fields, make a box. 64-bit and
 * to-the-end sizes are accepted where they are legal (the last box) but never written.
 */

export interface Box {
  type: string;
  /** Where the box starts, its header and the end of its payload, in the buffer it was read from. */
  start: number;
  bodyStart: number;
  end: number;
}

export const fourcc = (bytes: Uint8Array, at: number): string => String.fromCharCode(...bytes.subarray(at, at + 4));

/** The boxes of `bytes` between `start` and `end`; throws on a box that runs past `end`. */
export function readBoxes(bytes: Uint8Array, start = 0, end = bytes.length): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: Box[] = [];
  for (let at = start; at < end;) {
    if (at + 8 > end) throw new Error(`A box header at ${at} runs past its parent`);
    let size = view.getUint32(at);
    let bodyStart = at + 8;
    if (size === 1) {
      if (at + 16 > end) throw new Error(`A box header at ${at} runs past its parent`);
      size = Number(view.getBigUint64(at + 8));
      bodyStart = at + 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < bodyStart - at || at + size > end) throw new Error(`The box at ${at} runs past its parent`);
    boxes.push({ type: fourcc(bytes, at + 4), start: at, bodyStart, end: at + size });
    at += size;
  }
  return boxes;
}

/** A big-endian unsigned integer of `size` bytes (0, 2, 4 or 8; 0 reads as 0). */
export function readUint(bytes: Uint8Array, at: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + bytes[at + i]!;
  return value;
}

/** Writes `value` as a big-endian unsigned integer of `size` bytes; throws when it does not fit. */
export function writeUint(bytes: Uint8Array, at: number, size: number, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0 || (size < 8 && value >= 2 ** (8 * size))) {
    throw new Error(`${value} does not fit in ${size} bytes`);
  }
  for (let i = size - 1, v = value; i >= 0; i--, v = Math.floor(v / 256)) bytes[at + i] = v % 256;
}

/** A big-endian unsigned integer of `size` bytes, as bytes. */
export function uint(size: number, value: number): Uint8Array {
  const out = new Uint8Array(size);
  writeUint(out, 0, size, value);
  return out;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A string of 8-bit characters (box types, brands, item names) as bytes. */
export const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** A box with a 32-bit size; `fullBox` adds the version and flags of a FullBox. */
export function makeBox(type: string, body: readonly Uint8Array[], fullBox?: { version: number; flags: number }) {
  const header = fullBox ? [uint(1, fullBox.version), uint(3, fullBox.flags)] : [];
  const payload = concat([...header, ...body]);
  return concat([uint(4, payload.length + 8), ascii(type), payload]);
}

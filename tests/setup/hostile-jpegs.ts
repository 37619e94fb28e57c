/**
 * JPEGs built to hurt the server (issue 29): tiny segments by the million, a frame header behind
 * 9 × 64 KB segments, a scan bomb, bogus ICC chunks, metadata out of proportion to the image. Each
 * is a real JPEG around it (the base passed in), so only the hostile part decides the answer.
 */

const concat = (parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** One marker segment with `payload` (at most 65,533 bytes). */
export function segment(marker: number, payload: Uint8Array): Uint8Array<ArrayBuffer> {
  const length = payload.length + 2;
  return concat([new Uint8Array([0xff, marker, length >> 8, length & 0xff]), payload]);
}

/** `base` with `extra` inserted right after its SOI marker. */
export function afterSoi(base: Uint8Array, ...extra: Uint8Array[]): Uint8Array<ArrayBuffer> {
  return concat([base.subarray(0, 2), ...extra, base.subarray(2)]);
}

/** M1: `count` empty COM segments (`FF FE 00 02`) before the image. */
export function tinySegments(base: Uint8Array, count: number): Uint8Array<ArrayBuffer> {
  const run = new Uint8Array(count * 4);
  for (let i = 0; i < run.length; i += 4) run.set([0xff, 0xfe, 0x00, 0x02], i);
  return afterSoi(base, run);
}

/** `count` APP segments of 64 KB filler (APP11: no metadata kind the pipeline reads). */
export function fillerSegments(count: number, marker = 0xeb): Uint8Array[] {
  return Array.from({ length: count }, () => segment(marker, new Uint8Array(65_533).fill(0x41)));
}

/**
 * M2: the frame header behind 9 × 64 KB APP segments (576 KB), optionally declaring other
 * dimensions than the image has (e.g. 10001×10000, refused before anything decodes it).
 */
export function lateFrame(base: Uint8Array, size?: { width: number; height: number }): Uint8Array<ArrayBuffer> {
  const out = afterSoi(base, ...fillerSegments(9));
  if (size) setFrameSize(out, size);
  return out;
}

/** Rewrites the first frame header's dimensions in place. */
export function setFrameSize(bytes: Uint8Array, { width, height }: { width: number; height: number }): void {
  for (let i = 2; i + 9 < bytes.length; i++) {
    if (bytes[i] === 0xff && (bytes[i + 1] === 0xc0 || bytes[i + 1] === 0xc2)) {
      bytes.set([height >> 8, height & 0xff, width >> 8, width & 0xff], i + 5);
      return;
    }
  }
  throw new Error("no frame header");
}

/** A scan bomb: `count` extra scans (each an SOS header and one byte of data) before the EOI. */
export function scanBomb(base: Uint8Array, count: number): Uint8Array<ArrayBuffer> {
  const sos = segment(0xda, new Uint8Array([1, 1, 0x00, 0, 63, 0]));
  const scans = concat(Array.from({ length: count }, () => concat([sos, new Uint8Array([0x00])])));
  return concat([base.subarray(0, base.length - 2), scans, base.subarray(base.length - 2)]);
}

/**
 * I4: `count` ICC chunks of 64 KB whose sequence numbers all say 1 of `count` and whose profile
 * header declares a size they do not add up to.
 */
export function bogusIcc(base: Uint8Array, count: number): Uint8Array<ArrayBuffer> {
  const chunk = (seq: number) => {
    const payload = new Uint8Array(65_533);
    payload.set(new TextEncoder().encode("ICC_PROFILE\0"));
    payload[12] = seq;
    payload[13] = count;
    payload.set([0, 0, 0x02, 0x00], 14); // declares a 512-byte profile
    return segment(0xe2, payload);
  };
  return afterSoi(base, ...Array.from({ length: count }, () => chunk(1)));
}

/** A valid ICC profile of `size` bytes split over chunks of at most 65,519 bytes. */
export function validIccSegments(size: number): Uint8Array[] {
  const profile = new Uint8Array(size).fill(0x20);
  profile.set([size >>> 24, (size >> 16) & 0xff, (size >> 8) & 0xff, size & 0xff]);
  const step = 65_519;
  const count = Math.ceil(size / step);
  return Array.from({ length: count }, (_, i) => {
    const body = profile.subarray(i * step, (i + 1) * step);
    const payload = new Uint8Array(14 + body.length);
    payload.set(new TextEncoder().encode("ICC_PROFILE\0"));
    payload[12] = i + 1;
    payload[13] = count;
    payload.set(body, 14);
    return segment(0xe2, payload);
  });
}

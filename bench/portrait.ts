/** The bench's portrait case: a photo as a phone stores a portrait (bench/web-sets.ts, bench/http.ts). */
import { startsWithAscii, visitSegments } from "../codecs/container/jpeg-segments.ts";
import { concat } from "../codecs/container/isobmff.ts";

/**
 * The photo as a phone stores a portrait: the same pixels with EXIF orientation 6 (turn 90° clockwise to
 * show), so the upright image is taller than wide. A portrait's widths hold more pixels than a landscape's
 * (a 12 MP photo: 16.4 MP of AVIF against 9.2 MP), for a fixed job of the same size: the set's hardest case.
 */
export function asPortrait(bytes: Uint8Array): Uint8Array {
  // Exif header, big-endian TIFF, IFD0 with one entry: Orientation (0x0112), SHORT, 1 value: 6.
  const tiff = [0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0];
  const payload = [...new TextEncoder().encode("Exif\0\0"), ...tiff];
  const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  // The photo's own Exif segments go (one of them may say orientation 1).
  const drop: [number, number][] = [];
  visitSegments(bytes, (marker, start, payloadStart, end) => {
    if (marker === 0xe1 && startsWithAscii(bytes.subarray(payloadStart, end), "Exif")) drop.push([start, end]);
  });
  const parts: Uint8Array[] = [bytes.subarray(0, 2), new Uint8Array(app1)];
  let at = 2;
  for (const [start, end] of drop) {
    parts.push(bytes.subarray(at, start));
    at = end;
  }
  parts.push(bytes.subarray(at));
  return concat(parts);
}

/**
 * Minimal EXIF (TIFF) reader/patcher for IFD0: orientation and GPS presence.
 * Works on the APP1 payload after the "Exif\0\0" header, in both byte orders.
 */
const TAG_ORIENTATION = 0x0112;
const TAG_GPS_IFD = 0x8825;
const TYPE_SHORT = 3;

export interface ExifSummary {
  /** 1-8; 1 when absent or invalid. */
  orientation: number;
  hasGps: boolean;
  /** Offset (within the TIFF data) of the orientation value, for in-place rewriting. */
  orientationValueOffset: number | null;
  littleEndian: boolean;
}

const EMPTY: ExifSummary = { orientation: 1, hasGps: false, orientationValueOffset: null, littleEndian: false };

/** `tiff` is the APP1 payload with the 6-byte "Exif\0\0" header removed. */
export function readExif(tiff: Uint8Array): ExifSummary {
  if (tiff.length < 8) return EMPTY;
  const order = String.fromCharCode(tiff[0] ?? 0, tiff[1] ?? 0);
  if (order !== "II" && order !== "MM") return EMPTY;
  const littleEndian = order === "II";
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  if (view.getUint16(2, littleEndian) !== 42) return EMPTY;
  const ifd0 = view.getUint32(4, littleEndian);
  if (ifd0 < 8 || ifd0 + 2 > tiff.length) return EMPTY;
  const count = view.getUint16(ifd0, littleEndian);
  let orientation = 1;
  let orientationValueOffset: number | null = null;
  let hasGps = false;
  for (let i = 0; i < count; i++) {
    const entry = ifd0 + 2 + i * 12;
    if (entry + 12 > tiff.length) break;
    const tag = view.getUint16(entry, littleEndian);
    if (tag === TAG_ORIENTATION && view.getUint16(entry + 2, littleEndian) === TYPE_SHORT) {
      const value = view.getUint16(entry + 8, littleEndian);
      if (value >= 1 && value <= 8) orientation = value;
      orientationValueOffset = entry + 8;
    } else if (tag === TAG_GPS_IFD) {
      hasGps = view.getUint32(entry + 8, littleEndian) > 0;
    }
  }
  return { orientation, hasGps, orientationValueOffset, littleEndian };
}

/** Returns a copy of the TIFF data with the IFD0 orientation set to 1 (pixels are already upright). */
export function resetExifOrientation(tiff: Uint8Array): Uint8Array {
  const summary = readExif(tiff);
  const copy = tiff.slice();
  if (summary.orientationValueOffset !== null) {
    new DataView(copy.buffer).setUint16(summary.orientationValueOffset, 1, summary.littleEndian);
  }
  return copy;
}

/** Header-only inspection of a JPEG: no pixel decode, cheap enough for the server's upload path. */
import { CodecError } from "../errors.ts";
import { readExif } from "./exif.ts";
import { type Segment, SOS, startsWithAscii, walkSegments } from "./jpeg-segments.ts";
import { classifySegment, type MetadataKind } from "./metadata-kinds.ts";
import { FORMAT_NAMES, sniffFormat } from "./sniff.ts";
import { SOF_TYPES, type SofType } from "./sof-types.ts";

export type { SofType };

export type JpegColorSpace = "grayscale" | "ycbcr" | "rgb" | "cmyk" | "ycck";

export interface ComponentInfo {
  id: number;
  h: number;
  v: number;
}

export interface JpegInfo {
  width: number;
  height: number;
  /** Dimensions after applying the EXIF orientation. */
  displayWidth: number;
  displayHeight: number;
  sofMarker: number;
  sofType: SofType;
  progressive: boolean;
  precision: number;
  components: ComponentInfo[];
  colorSpace: JpegColorSpace;
  /** e.g. "4:2:0"; null for grayscale or unusual layouts. */
  chromaSubsampling: string | null;
  orientation: number;
  /** Metadata kinds present, in file order, without duplicates. */
  metadata: MetadataKind[];
  segments: Segment[];
  scanCount: number;
}

/**
 * Reads dimensions, frame type, components, orientation and metadata segments.
 * Throws `CodecError` (`unsupported_format` or `corrupt_image`) for anything
 * the pipeline would refuse anyway, so callers can refuse before queueing.
 */
export function inspectJpeg(bytes: Uint8Array): JpegInfo {
  const format = sniffFormat(bytes);
  if (format === "empty") throw new CodecError("unsupported_format", "The file is empty");
  if (format !== "jpeg") {
    const what = format === "unknown" ? "" : ` (it looks like a ${FORMAT_NAMES[format]} image)`;
    throw new CodecError("unsupported_format", `The file is not a JPEG image${what}`);
  }
  const walk = walkSegments(bytes);
  const sof = walk.segments.find((s) => SOF_TYPES[s.marker] !== undefined);
  if (!sof || sof.payload.length < 6) {
    throw new CodecError("corrupt_image", "Cannot decode the image: the file ends before its image data");
  }
  const info = readFrame(sof, walk.segments);
  if (walk.scanCount === 0 || walk.stop === "end-in-header") {
    throw new CodecError("corrupt_image", "Cannot decode the image: the file ends before its image data");
  }
  if (walk.stop === "bad-marker") {
    throw new CodecError("corrupt_image", "Cannot decode the image: its marker structure is damaged");
  }
  if (!walk.complete) {
    throw new CodecError("corrupt_image", "Cannot decode the image: the file is truncated inside its image data");
  }
  return { ...info, scanCount: walk.scanCount };
}

/**
 * Refuses a file too small for the image its header declares, before any
 * decode: every 8×8 block of the most detailed component codes at least one
 * bit (its DC difference, in a sequential or a progressive file alike).
 */
export function refuseImpossibleSize(info: JpegInfo, byteLength: number): void {
  if (byteLength >= minimumBytesFor(info)) return;
  throw new CodecError(
    "corrupt_image",
    `Cannot decode the image: ${byteLength} bytes cannot hold the ${info.width}×${info.height} image its header declares`,
  );
}

export function minimumBytesFor(info: Pick<JpegInfo, "width" | "height" | "components">): number {
  const hMax = Math.max(...info.components.map((c) => c.h || 1));
  const vMax = Math.max(...info.components.map((c) => c.v || 1));
  let blocks = 0;
  for (const c of info.components) {
    const w = Math.ceil((info.width * (c.h || 1)) / hMax);
    const h = Math.ceil((info.height * (c.v || 1)) / vMax);
    blocks = Math.max(blocks, Math.ceil(w / 8) * Math.ceil(h / 8));
  }
  return Math.ceil(blocks / 8);
}

function readFrame(sof: Segment, segments: Segment[]): Omit<JpegInfo, "scanCount"> {
  const p = sof.payload;
  const precision = p[0]!;
  const height = (p[1]! << 8) | p[2]!;
  const width = (p[3]! << 8) | p[4]!;
  const count = p[5]!;
  if (width === 0 || height === 0 || count === 0 || p.length < 6 + count * 3) {
    throw new CodecError("corrupt_image", "Cannot decode the image: its frame header is invalid");
  }
  const components: ComponentInfo[] = [];
  for (let i = 0; i < count; i++) {
    const at = 6 + i * 3;
    components.push({ id: p[at]!, h: p[at + 1]! >> 4, v: p[at + 1]! & 0x0f });
  }
  const sofType = SOF_TYPES[sof.marker]!;
  let orientation = 1;
  const metadata: MetadataKind[] = [];
  let adobeTransform: number | null = null;
  for (const segment of segments) {
    if (segment.marker === SOS) break;
    const kind = classifySegment(segment);
    if (kind && !metadata.includes(kind)) metadata.push(kind);
    if (kind === "exif") {
      const exif = readExif(segment.payload.subarray(6));
      if (orientation === 1) orientation = exif.orientation;
      if (exif.hasGps && !metadata.includes("gps")) metadata.push("gps");
    }
    if (segment.marker === 0xee && startsWithAscii(segment.payload, "Adobe") && segment.payload.length >= 12) {
      adobeTransform = segment.payload[11]!;
    }
  }
  const swap = orientation >= 5;
  return {
    width,
    height,
    displayWidth: swap ? height : width,
    displayHeight: swap ? width : height,
    sofMarker: sof.marker,
    sofType,
    progressive: sof.marker === 0xc2 || sof.marker === 0xca || sof.marker === 0xce,
    precision,
    components,
    colorSpace: colorSpaceOf(components, adobeTransform),
    chromaSubsampling: subsamplingOf(components),
    orientation,
    metadata,
    segments,
  };
}

function colorSpaceOf(components: ComponentInfo[], adobeTransform: number | null): JpegColorSpace {
  if (components.length === 1) return "grayscale";
  if (components.length === 4) return adobeTransform === 2 ? "ycck" : "cmyk";
  const ids = String.fromCharCode(...components.map((c) => c.id));
  if (adobeTransform === 0 || ids === "RGB") return "rgb";
  return "ycbcr";
}

/** Names the luma/chroma sampling ratio, e.g. Y 2×2 with chroma 1×1 is "4:2:0". */
export function subsamplingOf(components: ComponentInfo[]): string | null {
  if (components.length !== 3) return null;
  const [y, cb, cr] = components as [ComponentInfo, ComponentInfo, ComponentInfo];
  if (cb.h !== cr.h || cb.v !== cr.v || y.h % cb.h !== 0 || y.v % cb.v !== 0) return null;
  const key = `${y.h / cb.h}x${y.v / cb.v}`;
  const names: Record<string, string> = {
    "1x1": "4:4:4",
    "2x1": "4:2:2",
    "2x2": "4:2:0",
    "1x2": "4:4:0",
    "4x1": "4:1:1",
  };
  return names[key] ?? null;
}

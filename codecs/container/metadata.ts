/**
 * Metadata policy (DESIGN §4): the encoder writes a bare file, and we splice
 * the original's segments back in. stripMetadata=true keeps only the ICC
 * profile (dropping a non-sRGB profile shifts colours); stripMetadata=false
 * keeps everything, with the orientation reset to 1 because pixels are
 * already upright. JFIF/Adobe segments are structural and come from the
 * encoder; MPF is always dropped because the secondary images it points to
 * are not carried over. A format that holds less (FormatMetadata: AVIF's ICC and EXIF, WebP's nothing) is
 * planned and reported as what it carries; the rest is reported removed.
 */
import type { FormatMetadata } from "../../contract/formats.ts";
import type { MetadataReport } from "../../contract/jobs.ts";
import { resetExifOrientation } from "./exif.ts";
import { iccChunksValid, joinIcc } from "./icc.ts";
import { type JpegInfo } from "./inspect.ts";
import { APP0, type Segment, SOS } from "./jpeg-segments.ts";
import { classifySegment, METADATA_LABELS, type MetadataKind } from "./metadata-kinds.ts";

export type { MetadataReport };

export interface MetadataPlan {
  /** Complete segments (marker, length, payload) to insert after the encoder's header. */
  segments: Uint8Array[];
  /** The carried ICC profile, its chunks joined (for containers that hold it whole: AVIF). */
  icc: Uint8Array | null;
  /** The carried EXIF's TIFF data (after "Exif\0\0"), orientation reset to 1 (for AVIF's Exif item). */
  exif: Uint8Array | null;
  report: MetadataReport;
}

const REPORTED: readonly MetadataKind[] = ["exif", "gps", "xmp", "iptc", "icc", "comment", "mpf", "other"];
const STRUCTURAL: readonly MetadataKind[] = ["jfif", "adobe"];

export function keepsKind(kind: MetadataKind, strip: boolean): boolean {
  if (STRUCTURAL.includes(kind) || kind === "mpf") return false;
  return strip ? kind === "icc" : true;
}

/** Whether a format that holds `carries` can hold this kind at all. */
function holds(carries: FormatMetadata, kind: MetadataKind): boolean {
  return carries === "all" || (carries === "icc-exif" && (kind === "icc" || kind === "exif"));
}

export function planMetadata(info: JpegInfo, strip: boolean, carries: FormatMetadata = "all"): MetadataPlan {
  const header = info.segments.slice(0, Math.max(0, info.segments.findIndex((s) => s.marker === SOS)));
  const iccChunks = header.filter((s) => classifySegment(s) === "icc");
  // A profile whose chunks disagree with themselves is dropped, not carried (icc.ts).
  const iccKept = iccChunksValid(iccChunks);
  const carried = (kind: MetadataKind) => holds(carries, kind) && keepsKind(kind, strip) && (kind !== "icc" || iccKept);
  const segments: Uint8Array[] = [];
  let exif: Uint8Array | null = null;
  for (const segment of header) {
    const kind = classifySegment(segment);
    if (!kind || !carried(kind)) continue;
    const payload = rewritePayload(kind, segment);
    segments.push(serialise(segment.marker, payload));
    // Readers take the first EXIF segment: a container with one Exif item keeps that one.
    if (kind === "exif") exif ??= payload.subarray(6);
  }
  const found = REPORTED.filter((k) => info.metadata.includes(k));
  // GPS lives inside EXIF: it goes wherever EXIF goes.
  const kept = found.filter((k) => carried(k === "gps" ? "exif" : k));
  const removed = found.filter((k) => !kept.includes(k));
  const label = (k: MetadataKind) => METADATA_LABELS[k];
  return {
    segments,
    icc: carried("icc") ? joinIcc(iccChunks) : null,
    exif,
    report: {
      found: found.map(label),
      kept: kept.map(label),
      removed: removed.map(label),
      orientation: info.orientation,
    },
  };
}

function rewritePayload(kind: MetadataKind, segment: Segment): Uint8Array {
  if (kind === "exif") {
    const out = segment.payload.slice();
    out.set(resetExifOrientation(segment.payload.subarray(6)), 6);
    return out;
  }
  if (kind === "xmp") return resetXmpOrientation(segment.payload);
  return segment.payload;
}

/** XMP can repeat the orientation (tiff:Orientation); a one-digit in-place edit keeps the length. */
function resetXmpOrientation(payload: Uint8Array): Uint8Array {
  const text = new TextDecoder("latin1").decode(payload);
  const matches = [...text.matchAll(/(tiff:Orientation(?:=["']|>))([2-8])/g)];
  if (matches.length === 0) return payload;
  const out = payload.slice();
  for (const match of matches) {
    out[match.index + match[1]!.length] = 0x31; // "1"
  }
  return out;
}

function serialise(marker: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(payload.length + 4);
  const length = payload.length + 2;
  out.set([0xff, marker, length >> 8, length & 0xff]);
  out.set(payload, 4);
  return out;
}

/** Inserts segments after SOI and any leading APP0 (JFIF) the encoder wrote. */
export function spliceSegments(encoded: Uint8Array, segments: Uint8Array[]): Uint8Array {
  if (segments.length === 0) return encoded;
  let at = 2;
  if (encoded[at] === 0xff && encoded[at + 1] === APP0) {
    at += 2 + ((encoded[at + 2]! << 8) | encoded[at + 3]!);
  }
  const extra = segments.reduce((n, s) => n + s.length, 0);
  const out = new Uint8Array(encoded.length + extra);
  out.set(encoded.subarray(0, at), 0);
  let pos = at;
  for (const s of segments) {
    out.set(s, pos);
    pos += s.length;
  }
  out.set(encoded.subarray(at), pos);
  return out;
}

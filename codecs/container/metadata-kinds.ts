/** Names the metadata carried by one marker segment. */
import { APP0, COM, type Segment, startsWithAscii } from "./jpeg-segments.ts";

export type MetadataKind =
  | "jfif"
  | "exif"
  | "gps"
  | "xmp"
  | "iptc"
  | "icc"
  | "comment"
  | "mpf"
  | "adobe"
  | "other";

/** Human-readable names used in the job's metadata report. */
export const METADATA_LABELS: Readonly<Record<MetadataKind, string>> = {
  jfif: "JFIF",
  exif: "EXIF",
  gps: "GPS",
  xmp: "XMP",
  iptc: "IPTC",
  icc: "ICC profile",
  comment: "Comment",
  mpf: "MPF",
  adobe: "Adobe",
  other: "Other APP segments",
};

export const XMP_HEADER = "http://ns.adobe.com/xap/1.0/\0";
const XMP_EXTENSION_HEADER = "http://ns.adobe.com/xmp/extension/\0";

export function classifySegment(segment: Segment): MetadataKind | null {
  const { marker, payload } = segment;
  if (marker === COM) return "comment";
  if (marker < APP0 || marker > 0xef) return null;
  if (marker === APP0) return startsWithAscii(payload, "JFIF") || startsWithAscii(payload, "JFXX") ? "jfif" : "other";
  if (marker === 0xe1) {
    if (startsWithAscii(payload, "Exif\0")) return "exif";
    if (startsWithAscii(payload, XMP_HEADER) || startsWithAscii(payload, XMP_EXTENSION_HEADER)) return "xmp";
    return "other";
  }
  if (marker === 0xe2) {
    if (startsWithAscii(payload, "ICC_PROFILE\0")) return "icc";
    if (startsWithAscii(payload, "MPF\0")) return "mpf";
    return "other";
  }
  if (marker === 0xed) return "iptc";
  if (marker === 0xee && startsWithAscii(payload, "Adobe")) return "adobe";
  return "other";
}

/**
 * A whole file's structure in one pass that keeps nothing per segment: where the
 * frame header is (however far into the file), how many segments and scans, how
 * much metadata. Admission refuses from it before a job exists (ADR 027).
 */
import { CodecError } from "../errors.ts";
import { COM, SOS, STRUCTURE_LIMITS, structureRefusal, visitSegments } from "./jpeg-segments.ts";
import { SOF_TYPES } from "./sof-types.ts";

export interface JpegSurvey {
  /** From the first frame header; null when the file has none. */
  frame: { width: number; height: number } | null;
  segments: number;
  scans: number;
  /** Payload bytes of APPn and COM segments. */
  metadataBytes: number;
}

/**
 * Metadata past both bounds is refused: 4 MiB covers bloated XMP histories and
 * large print profiles on small images; 2 bytes per pixel covers any camera's.
 */
export const METADATA_LIMIT = { floorBytes: 4 * 1024 * 1024, bytesPerPixel: 2 } as const;

export const metadataLimitFor = (pixels: number) =>
  Math.max(METADATA_LIMIT.floorBytes, METADATA_LIMIT.bytesPerPixel * pixels);

/** Surveys `bytes` (a JPEG, or a file's first bytes) up to the structure limits. */
export function surveyJpeg(bytes: Uint8Array): JpegSurvey {
  const survey: JpegSurvey = { frame: null, segments: 0, scans: 0, metadataBytes: 0 };
  visitSegments(bytes, (marker, _start, payloadStart, end) => {
    survey.segments++;
    if (marker === SOS) survey.scans++;
    if ((marker >= 0xe0 && marker <= 0xef) || marker === COM) survey.metadataBytes += end - payloadStart;
    if (survey.frame === null && SOF_TYPES[marker] !== undefined && end - payloadStart >= 5) {
      survey.frame = {
        height: (bytes[payloadStart + 1]! << 8) | bytes[payloadStart + 2]!,
        width: (bytes[payloadStart + 3]! << 8) | bytes[payloadStart + 4]!,
      };
    }
    return survey.segments <= STRUCTURE_LIMITS.segments && survey.scans <= STRUCTURE_LIMITS.scans;
  });
  return survey;
}

/**
 * Why a surveyed file is refused before decoding (its structure or its metadata
 * is out of all proportion to its image), or null. The pixel limit is the plan's
 * and is checked by the caller.
 */
export function structureProblem(survey: JpegSurvey): CodecError | null {
  if (survey.scans > STRUCTURE_LIMITS.scans) return structureRefusal("scans");
  if (survey.segments > STRUCTURE_LIMITS.segments) return structureRefusal("segments");
  const pixels = survey.frame ? survey.frame.width * survey.frame.height : 0;
  const limit = metadataLimitFor(pixels);
  if (survey.metadataBytes > limit) {
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    return new CodecError(
      "metadata_too_large",
      `The file carries ${mb(survey.metadataBytes)} of metadata for ${
        survey.frame ? `a ${survey.frame.width}×${survey.frame.height} image` : "its image"
      }; at most ${mb(limit)} is accepted (4 MB, or 2 bytes per pixel on larger images)`,
    );
  }
  return null;
}

/**
 * Client-side upload rules (spec §5): JPEG only, the plan's size and count limits.
 * The server checks everything again; this only spares users a pointless upload.
 */

export type RejectionCode = "file-invalid-type" | "file-too-large" | "file-too-small" | "too-many-files";

export interface UploadLimits {
  maxFileBytes: number;
  maxFiles: number;
}

export interface FileRejection {
  file: File;
  code: RejectionCode;
  message: string;
}

export interface Selection {
  accepted: File[];
  rejections: FileRejection[];
  /** Files flagged as not JPEG / over the size limit (the spec's two notices). */
  invalidType: number;
  tooLarge: number;
}

export const ACCEPT_ATTRIBUTE = ".jpg,.jpeg,image/jpeg,image/jpg";
const JPEG_NAME = /\.jpe?g$/i;

/** "10MB" for 10 MiB: the spec's wording of the limit. */
export const limitLabel = (bytes: number) => `${Math.round(bytes / (1024 * 1024))}MB`;

/**
 * A size against a limit with exact figures: "10.04 MB, limit 10 MB". The size is rounded up to
 * two decimals, so a file a few bytes over the limit never reads as equal to it.
 */
export function overLimitText(size: number, limit: number): string {
  const mb = (b: number) => b / (1024 * 1024);
  const shown = (Math.ceil(mb(size) * 100) / 100).toFixed(2);
  const limitMb = mb(limit);
  return `${shown} MB, limit ${Number.isInteger(limitMb) ? limitMb : limitMb.toFixed(2)} MB`;
}

/** The type must say jpeg/jpg (spec §5) and the name must end in .jpg/.jpeg. */
export const isJpegType = (type: string) => /jpe?g/i.test(type);
export const isJpegFile = (file: Pick<File, "name" | "type">) => isJpegType(file.type) && JPEG_NAME.test(file.name);

export function rejectionMessage(code: RejectionCode, file: Pick<File, "size">, limits: UploadLimits): string {
  switch (code) {
    case "file-too-large":
      return `File too large (${overLimitText(file.size, limits.maxFileBytes)})`;
    case "file-invalid-type":
      return "Only JPEG images are allowed";
    case "too-many-files":
      return `Too many files (max ${limits.maxFiles})`;
    default:
      return "This file cannot be uploaded";
  }
}

function codeFor(file: File, limits: UploadLimits): RejectionCode | null {
  if (!isJpegFile(file)) return "file-invalid-type";
  if (file.size > limits.maxFileBytes) return "file-too-large";
  if (file.size === 0) return "file-too-small";
  return null;
}

/** Sorts dropped files into accepted and rejected, given how many are already selected. */
export function selectFiles(files: File[], alreadySelected: number, limits: UploadLimits): Selection {
  const accepted: File[] = [];
  const rejections: FileRejection[] = [];
  let invalidType = 0;
  let tooLarge = 0;
  for (const file of files) {
    let code = codeFor(file, limits);
    if (code === "file-invalid-type") invalidType++;
    if (code === "file-too-large") tooLarge++;
    if (!code && alreadySelected + accepted.length >= limits.maxFiles) code = "too-many-files";
    if (code) rejections.push({ file, code, message: rejectionMessage(code, file, limits) });
    else accepted.push(file);
  }
  return { accepted, rejections, invalidType, tooLarge };
}

/** During a drag only types and the count are visible, not sizes. */
export function dragIsInvalid(items: DataTransferItemList | null, alreadySelected: number, limits: UploadLimits) {
  if (!items) return false;
  const files = Array.from(items).filter((i) => i.kind === "file");
  if (files.length === 0) return false;
  return alreadySelected + files.length > limits.maxFiles || files.some((i) => !isJpegType(i.type));
}

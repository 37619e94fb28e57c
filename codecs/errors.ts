/**
 * Typed codec errors. The server maps `code` to an HTTP status once
 * (see `HTTP_STATUS_BY_CODE`); messages are user-facing, sentence case, no
 * trailing period.
 */
export const CODEC_ERROR_CODES = [
  "unsupported_format",
  "too_many_pixels",
  "metadata_too_large",
  "corrupt_image",
  "queue_full",
  "timeout",
  "aborted",
  "worker_crashed",
  "closed",
  "invalid_settings",
] as const;
export type CodecErrorCode = (typeof CODEC_ERROR_CODES)[number];

/** Suggested HTTP status per code; the server owns the final mapping. */
export const HTTP_STATUS_BY_CODE: Readonly<Record<CodecErrorCode, number>> = {
  unsupported_format: 415,
  too_many_pixels: 413,
  metadata_too_large: 413,
  corrupt_image: 422,
  queue_full: 503,
  timeout: 504,
  aborted: 499,
  worker_crashed: 500,
  closed: 503,
  invalid_settings: 400,
};

export class CodecError extends Error {
  override readonly name = "CodecError";
  constructor(readonly code: CodecErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

export function isCodecError(value: unknown): value is CodecError {
  return value instanceof CodecError;
}

/** Serialisable form used across the worker boundary. */
export interface CodecErrorData {
  code: CodecErrorCode;
  message: string;
}

export function toCodecErrorData(error: unknown): CodecErrorData {
  if (error instanceof CodecError) return { code: error.code, message: error.message };
  const detail = error instanceof Error ? error.message : String(error);
  return { code: "corrupt_image", message: `Cannot decode the image: ${lowerFirst(detail)}` };
}

export function fromCodecErrorData(data: CodecErrorData): CodecError {
  return new CodecError(data.code, data.message);
}

export function tooManyPixels(width: number, height: number, limit: number): CodecError {
  const mp = (width * height) / 1e6;
  return new CodecError(
    "too_many_pixels",
    `The image is ${width}×${height} (${mp.toFixed(1)} MP); the limit is ${formatMp(limit)} MP`,
  );
}

function formatMp(pixels: number): string {
  const mp = pixels / 1e6;
  return Number.isInteger(mp) ? String(mp) : mp.toFixed(1);
}

function lowerFirst(text: string): string {
  const trimmed = text.replace(/\.+$/, "");
  return trimmed.charAt(0).toLowerCase() + trimmed.slice(1);
}

/** The names the app shows for the codecs that make a job's bytes (`Job.encoder`, `CompressSettings.encoder`). */
import type { CodecId } from "./settings.ts";

export const CODEC_LABELS: Record<CodecId, string> = {
  mozjpeg: "MozJPEG",
  jpegli: "jpegli",
  webp: "WebP (libwebp)",
  avif: "AVIF (libaom)",
};

export const codecLabel = (id: CodecId): string => CODEC_LABELS[id];

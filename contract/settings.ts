/**
 * Compression settings: the one definition shared by the codecs, the server
 * (which validates uploads with these schemas) and the web app.
 */
import { z } from "zod";
import { DEFAULT_MAX_CONCURRENT } from "./plans.ts";

export const OUTPUT_FORMATS = ["jpeg", "webp"] as const;
/** The JPEG encoders (codecs/registry.ts): MozJPEG (the spec's `mozjpeg` toggle applies to it) and jpegli. */
export const ENCODERS = ["mozjpeg", "jpegli"] as const;
/** Every codec that can make a job's bytes (reported per job as `encoder`): the JPEG encoders and each other format's own. */
export const CODEC_IDS = [...ENCODERS, "webp"] as const;
export const MODES = ["speed", "balanced", "quality"] as const;
export const CHROMA_SUBSAMPLINGS = ["4:4:4", "4:2:2", "4:2:0"] as const;
export const BATCH_PRIORITIES = ["low", "normal", "high"] as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export type Encoder = (typeof ENCODERS)[number];
export type CodecId = (typeof CODEC_IDS)[number];
export type Mode = (typeof MODES)[number];
export type ChromaSubsampling = (typeof CHROMA_SUBSAMPLINGS)[number];
export type BatchPriority = (typeof BATCH_PRIORITIES)[number];

/** Premium "advanced algorithms": search the quality setting for a goal. */
export const targetSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("size"), kb: z.number().int().min(1).max(100_000) }),
  z.object({ kind: z.literal("quality"), score: z.number().min(50).max(95) }),
  z.object({ kind: z.literal("auto") }),
]);
export type Target = z.infer<typeof targetSchema>;

/**
 * Score targets (auto, a quality score) try every JPEG encoder and keep the smaller passing file; a size
 * target and a fixed quality use the chosen `encoder` (codecs/pipeline/encoder-search.ts).
 */
export const searchesEncoders = (s: { format: OutputFormat; target: Target | null | undefined }): boolean =>
  s.format === "jpeg" && (s.target?.kind === "auto" || s.target?.kind === "quality");

const compressSettingsFields = z.object({
  quality: z.number().int().min(1).max(100),
  format: z.enum(OUTPUT_FORMATS),
  encoder: z.enum(ENCODERS),
  mode: z.enum(MODES),
  progressive: z.boolean(),
  mozjpeg: z.boolean(),
  optimizeForWeb: z.boolean(),
  stripMetadata: z.boolean(),
  chromaSubsampling: z.enum(CHROMA_SUBSAMPLINGS),
  target: targetSchema.nullable(),
});

/** WebP has no JPEG encoder: asking for jpegli with WebP output is a mistake, not a preference to ignore. */
export const ENCODER_FORMAT_ERROR = "jpegli encodes JPEG only; use encoder=mozjpeg with format=webp";
function encoderFitsFormat(settings: { format: OutputFormat; encoder: Encoder }, ctx: z.RefinementCtx): void {
  if (settings.format === "webp" && settings.encoder === "jpegli") {
    ctx.addIssue({ code: "custom", path: ["encoder"], message: ENCODER_FORMAT_ERROR });
  }
}

export const compressSettingsSchema = compressSettingsFields.superRefine(encoderFitsFormat);
export type CompressSettings = z.infer<typeof compressSettingsSchema>;

export const DEFAULT_SETTINGS: CompressSettings = {
  quality: 80,
  format: "jpeg",
  encoder: "mozjpeg",
  mode: "balanced",
  progressive: false,
  mozjpeg: true,
  optimizeForWeb: true,
  stripMetadata: true,
  chromaSubsampling: "4:2:0",
  target: null,
};

/** Compression settings plus the batch options: what the server remembers per user. */
export const savedSettingsSchema = compressSettingsFields.extend({
  priority: z.enum(BATCH_PRIORITIES),
  maxConcurrent: z.number().int().min(1).max(10),
  pauseOnError: z.boolean(),
}).superRefine(encoderFitsFormat);
export type SavedSettings = z.infer<typeof savedSettingsSchema>;

export const DEFAULT_SAVED_SETTINGS: SavedSettings = {
  ...DEFAULT_SETTINGS,
  priority: "normal",
  maxConcurrent: DEFAULT_MAX_CONCURRENT,
  pauseOnError: false,
};

/** POST /api/jobs/:id/recompress and /api/batches/:id/recompress: the settings to compress the kept originals with. */
export const recompressSchema = z.object({ settings: compressSettingsSchema });
export type RecompressRequest = z.infer<typeof recompressSchema>;

/** Re-compressions of one upload that cost no quota on the day it was charged (issue 15: bounded, not unlimited work). */
export const FREE_RECOMPRESSIONS_PER_IMAGE = 5;

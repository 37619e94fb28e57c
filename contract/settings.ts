/**
 * Compression settings: the one definition shared by the codecs, the server
 * (which validates uploads with these schemas) and the web app.
 */
import { z } from "zod";
import { DEFAULT_MAX_CONCURRENT } from "./plans.ts";

export const OUTPUT_FORMATS = ["jpeg", "webp"] as const;
export const MODES = ["speed", "balanced", "quality"] as const;
export const CHROMA_SUBSAMPLINGS = ["4:4:4", "4:2:2", "4:2:0"] as const;
export const BATCH_PRIORITIES = ["low", "normal", "high"] as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
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

export const compressSettingsSchema = z.object({
  quality: z.number().int().min(1).max(100),
  format: z.enum(OUTPUT_FORMATS),
  mode: z.enum(MODES),
  progressive: z.boolean(),
  mozjpeg: z.boolean(),
  optimizeForWeb: z.boolean(),
  stripMetadata: z.boolean(),
  chromaSubsampling: z.enum(CHROMA_SUBSAMPLINGS),
  target: targetSchema.nullable(),
});
export type CompressSettings = z.infer<typeof compressSettingsSchema>;

export const DEFAULT_SETTINGS: CompressSettings = {
  quality: 80,
  format: "jpeg",
  mode: "balanced",
  progressive: false,
  mozjpeg: true,
  optimizeForWeb: true,
  stripMetadata: true,
  chromaSubsampling: "4:2:0",
  target: null,
};

/** Compression settings plus the batch options: what the server remembers per user. */
export const savedSettingsSchema = compressSettingsSchema.extend({
  priority: z.enum(BATCH_PRIORITIES),
  maxConcurrent: z.number().int().min(1).max(10),
  pauseOnError: z.boolean(),
});
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

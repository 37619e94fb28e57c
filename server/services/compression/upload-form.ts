/** Reads and validates the multipart fields of POST /api/compress (DESIGN §4 settings). */
import { z } from "zod";
import {
  BATCH_PRIORITIES,
  CHROMA_SUBSAMPLINGS,
  type CompressSettings,
  compressSettingsSchema,
  DEFAULT_SETTINGS,
  ENCODERS,
  MODES,
  OUTPUT_FORMATS,
  targetSchema,
} from "../../../contract/settings.ts";
import { DEFAULT_MAX_CONCURRENT } from "../../../contract/plans.ts";
import { ApiError } from "../../http-error.ts";
import { parseInput } from "../validation.ts";

const flag = (name: string) =>
  z.enum(["true", "false"], { error: `${name} must be "true" or "false"` }).transform((v) => v === "true");

const intIn = (name: string, min: number, max: number) =>
  z.string().regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`).transform(Number)
    .pipe(
      z.number().min(min, `${name} must be a whole number from ${min} to ${max}`)
        .max(max, `${name} must be a whole number from ${min} to ${max}`),
    );

const oneOf = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of ${values.join(", ")}` });

const fieldsSchema = z.object({
  quality: intIn("quality", 1, 100).optional(),
  format: oneOf("format", OUTPUT_FORMATS).optional(),
  encoder: oneOf("encoder", ENCODERS).optional(),
  mode: oneOf("mode", MODES).optional(),
  progressive: flag("progressive").optional(),
  mozjpeg: flag("mozjpeg").optional(),
  optimizeForWeb: flag("optimizeForWeb").optional(),
  stripMetadata: flag("stripMetadata").optional(),
  chromaSubsampling: oneOf("chromaSubsampling", CHROMA_SUBSAMPLINGS).optional(),
  priority: oneOf("priority", BATCH_PRIORITIES).optional(),
  maxConcurrent: intIn("maxConcurrent", 1, 10).optional(),
  pauseOnError: flag("pauseOnError").optional(),
  target: z.string().transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: 'target must be JSON such as {"kind":"size","kb":200}' });
      return z.NEVER;
    }
  }).pipe(targetSchema).optional(),
});

export interface UploadFile {
  name: string;
  bytes: Uint8Array;
}

export interface UploadForm {
  files: File[];
  settings: CompressSettings;
  priority: (typeof BATCH_PRIORITIES)[number];
  maxConcurrent: number;
  pauseOnError: boolean;
}

/** Fields and files of a multipart body, repeated names as arrays. */
export type MultipartBody = Record<string, string | File | (string | File)[]>;

export function readUploadForm(body: MultipartBody): UploadForm {
  const raw = body["images"];
  const files = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v): v is File => v instanceof File);
  if (files.length === 0) throw new ApiError(400, "images: attach at least one JPEG file");

  const scalars: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === "images") continue;
    const v = Array.isArray(value) ? value[0] : value;
    if (typeof v === "string" && v !== "") scalars[key] = v;
  }
  const f = parseInput(fieldsSchema, scalars);
  const d = DEFAULT_SETTINGS;
  return {
    files,
    // The whole shape again, for the rules across fields (an encoder that cannot write the format).
    settings: parseInput(compressSettingsSchema, {
      quality: f.quality ?? d.quality,
      format: f.format ?? d.format,
      encoder: f.encoder ?? d.encoder,
      mode: f.mode ?? d.mode,
      progressive: f.progressive ?? d.progressive,
      mozjpeg: f.mozjpeg ?? d.mozjpeg,
      optimizeForWeb: f.optimizeForWeb ?? d.optimizeForWeb,
      stripMetadata: f.stripMetadata ?? d.stripMetadata,
      chromaSubsampling: f.chromaSubsampling ?? d.chromaSubsampling,
      target: f.target ?? null,
    }),
    priority: f.priority ?? "normal",
    maxConcurrent: f.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
    pauseOnError: f.pauseOnError ?? false,
  };
}

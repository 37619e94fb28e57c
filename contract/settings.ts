/**
 * Compression settings: the one definition shared by the codecs, the server
 * (which validates uploads with these schemas) and the web app.
 */
import { z } from "zod";
import { DEFAULT_MAX_CONCURRENT } from "./plans.ts";
import { DEFAULT_SET_FORMATS, MAX_SET_WIDTHS } from "./web-sets.ts";
import {
  AUTO_FORMAT,
  CODEC_IDS,
  type CodecId,
  type Encoder,
  encoderFits,
  encoderFormatError,
  ENCODERS,
  FORMAT_CHOICES,
  type FormatChoice,
  hasEncoderChoice,
  OUTPUT_FORMATS,
  type OutputFormat,
} from "./formats.ts";

// The format facts live in formats.ts; these are re-exported for the settings' many readers.
export {
  CODEC_IDS,
  type CodecId,
  type Encoder,
  ENCODERS,
  FORMAT_CHOICES,
  type FormatChoice,
  OUTPUT_FORMATS,
  type OutputFormat,
};
export const MODES = ["speed", "balanced", "quality"] as const;
export const CHROMA_SUBSAMPLINGS = ["4:4:4", "4:2:2", "4:2:0"] as const;
export const BATCH_PRIORITIES = ["low", "normal", "high"] as const;
/** How a resize box with both sides is filled (codecs/image/resize.ts): within it, or all of it with a centred crop. */
export const FITS = ["inside", "cover"] as const;

export type Mode = (typeof MODES)[number];
export type ChromaSubsampling = (typeof CHROMA_SUBSAMPLINGS)[number];
export type BatchPriority = (typeof BATCH_PRIORITIES)[number];
export type Fit = (typeof FITS)[number];

/** The ranges of the numeric settings, written once: the schemas, the form's fields and the API docs read them. */
export const QUALITY_RANGE = { min: 1, max: 100 } as const;
export const MAX_CONCURRENT_RANGE = { min: 1, max: 10 } as const;
export const TARGET_KB_RANGE = { min: 1, max: 100_000 } as const;
export const TARGET_SCORE_RANGE = { min: 50, max: 95 } as const;
/** maxWidth and maxHeight, in pixels; also each width of a web set. */
export const RESIZE_RANGE = { min: 1, max: 16_384 } as const;

type Range = { readonly min: number; readonly max: number };

/** One message per field, whatever is wrong with it: the API answers it as `{ "error": … }`. */
const wholeNumber = (name: string, r: Range) => {
  const message = `${name} must be a whole number from ${r.min} to ${r.max}`;
  return z.number({ error: message }).int(message).min(r.min, message).max(r.max, message);
};
const oneOf = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of ${values.join(", ")}` });
const flag = (name: string) => z.boolean({ error: `${name} must be "true" or "false"` });

/** Premium "advanced algorithms": search the quality setting for a goal. */
export const targetSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("size"), kb: wholeNumber("target.kb", TARGET_KB_RANGE) }),
  z.object({
    kind: z.literal("quality"),
    score: z.number().min(TARGET_SCORE_RANGE.min).max(TARGET_SCORE_RANGE.max),
  }),
  z.object({ kind: z.literal("auto") }),
], { error: 'target must be JSON such as {"kind":"size","kb":200}' });
export type Target = z.infer<typeof targetSchema>;

/**
 * Score targets (auto, a quality score) and format=auto try every JPEG encoder and keep the smaller passing
 * file; a size target and a fixed quality use the chosen `encoder` (codecs/pipeline/encoder-search.ts).
 */
export const searchesEncoders = (s: { format: FormatChoice; target: Target | null | undefined }): boolean =>
  s.format === AUTO_FORMAT ||
  (hasEncoderChoice(s.format) && (s.target?.kind === "auto" || s.target?.kind === "quality"));

/**
 * "auto": the smallest output whose SSIMULACRA 2 is at least 80, the level the metric's authors describe as not
 * noticeable side by side at 1:1 (justified in codecs/README.md).
 */
export const AUTO_SCORE_THRESHOLD = 80;

/** The score a job's output must reach: its target's, or on format=auto without one auto's; null for none. */
export function scoreGoalOf(s: { format: FormatChoice; target: Target | null }): number | null {
  const target = s.target ?? (s.format === AUTO_FORMAT ? { kind: "auto" as const } : null);
  return target?.kind === "auto" ? AUTO_SCORE_THRESHOLD : target?.kind === "quality" ? target.score : null;
}

/** A web set's widths (Premium; contract/web-sets.ts): null makes one output, not a set. */
const widthsMessage =
  `widths must be 1 to ${MAX_SET_WIDTHS} different whole numbers from ${RESIZE_RANGE.min} to ${RESIZE_RANGE.max}`;
const setWidthsSchema = z.array(
  z.number({ error: widthsMessage }).int(widthsMessage).min(RESIZE_RANGE.min, widthsMessage)
    .max(RESIZE_RANGE.max, widthsMessage),
  { error: widthsMessage },
).min(1, widthsMessage).max(MAX_SET_WIDTHS, widthsMessage)
  .refine((list) => new Set(list).size === list.length, widthsMessage);
/** A web set's formats: the `<picture>` sources it makes, each once. */
const formatsMessage = `formats must be one or more of ${OUTPUT_FORMATS.join(", ")}, each once`;
const setFormatsSchema = z.array(z.enum(OUTPUT_FORMATS, { error: formatsMessage }), { error: formatsMessage })
  .min(1, formatsMessage).refine((list) => new Set(list).size === list.length, formatsMessage);

/** How one image is compressed: what reaches the codecs. */
const compressSettingsFields = z.object({
  quality: wholeNumber("quality", QUALITY_RANGE),
  format: oneOf("format", FORMAT_CHOICES),
  encoder: oneOf("encoder", ENCODERS),
  mode: oneOf("mode", MODES),
  progressive: flag("progressive"),
  mozjpeg: flag("mozjpeg"),
  optimizeForWeb: flag("optimizeForWeb"),
  stripMetadata: flag("stripMetadata"),
  chromaSubsampling: oneOf("chromaSubsampling", CHROMA_SUBSAMPLINGS),
  target: targetSchema.nullable(),
  maxWidth: wholeNumber("maxWidth", RESIZE_RANGE).nullable(),
  maxHeight: wholeNumber("maxHeight", RESIZE_RANGE).nullable(),
  fit: oneOf("fit", FITS),
  widths: setWidthsSchema.nullable(),
  formats: setFormatsSchema,
  archive: flag("archive"),
});

/** How a batch is scheduled (the spec's batchProcessing): what reaches the scheduler, never a codec. */
const batchOptionsFields = z.object({
  priority: oneOf("priority", BATCH_PRIORITIES),
  maxConcurrent: wholeNumber("maxConcurrent", MAX_CONCURRENT_RANGE),
  pauseOnError: flag("pauseOnError"),
});

/** The best-known case of an encoder that does not fit its format (formats.ts `encoderFits`). */
export const ENCODER_FORMAT_ERROR = encoderFormatError("webp", "jpegli");
function encoderFitsFormat(settings: { format: FormatChoice; encoder: Encoder }, ctx: z.RefinementCtx): void {
  if (settings.format !== AUTO_FORMAT && !encoderFits(settings.format, settings.encoder)) {
    ctx.addIssue({ code: "custom", path: ["encoder"], message: encoderFormatError(settings.format, settings.encoder) });
  }
}

/** format=auto ranks formats by the bytes each needs for a score: a size target has no such ranking. */
export const AUTO_FORMAT_SIZE_ERROR =
  "format=auto chooses the smallest file at a score: use target auto or a quality score, not a size (or choose a format)";
function autoFormatNeedsScore(settings: { format: FormatChoice; target: Target | null }, ctx: z.RefinementCtx): void {
  if (settings.format === AUTO_FORMAT && settings.target?.kind === "size") {
    ctx.addIssue({ code: "custom", path: ["target"], message: AUTO_FORMAT_SIZE_ERROR });
  }
}

/** format=auto compares lossy encodes at a score: JPEG XL (a JPEG, losslessly) is a set's format, not its choice. */
export const AUTO_FORMAT_JXL_ERROR = "format=auto chooses among avif, webp and jpeg: leave jxl out of formats";
/** A set's JPEG XL files are its JPEGs, losslessly: the JPEGs are the `<img>` every browser shows. */
export const SET_JXL_ERROR = "a web set with jxl needs jpeg too: its JPEGs are the <img> every browser shows";
/** archive keeps the upload itself, as JPEG XL: nothing else can hold it unchanged. */
export const ARCHIVE_ERROR = "archive=true keeps the upload itself as JPEG XL: use format=jxl (and no widths)";
function losslessRules(
  settings: { format: FormatChoice; formats: OutputFormat[]; archive: boolean; widths: number[] | null },
  ctx: z.RefinementCtx,
): void {
  if (settings.format === AUTO_FORMAT && !settings.widths && settings.formats.includes("jxl")) {
    ctx.addIssue({ code: "custom", path: ["formats"], message: AUTO_FORMAT_JXL_ERROR });
  }
  if (settings.widths && settings.formats.includes("jxl") && !settings.formats.includes("jpeg")) {
    ctx.addIssue({ code: "custom", path: ["formats"], message: SET_JXL_ERROR });
  }
  if (settings.archive && (settings.format !== "jxl" || settings.widths)) {
    ctx.addIssue({ code: "custom", path: ["archive"], message: ARCHIVE_ERROR });
  }
}

/** How one image is compressed (the codecs' part of `SavedSettings`). */
export type CompressSettings = z.infer<typeof compressSettingsFields>;
/** The compression part's schema, for documents generated from it (the OpenAPI description of a Job). */
export const compressSettingsSchema = compressSettingsFields;

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
  maxWidth: null,
  maxHeight: null,
  fit: "inside",
  widths: null,
  formats: [...DEFAULT_SET_FORMATS],
  archive: false,
};

/**
 * THE settings shape (ADR 024): compression settings plus the batch options. The form edits it, the
 * server remembers it per user (users.settings_json) and per batch (batches.settings_json), an upload's
 * text fields and a re-compression's JSON parse into it; the codecs get its compression part.
 */
export const savedSettingsSchema = compressSettingsFields.extend(batchOptionsFields.shape).superRefine(
  (settings, ctx) => {
    encoderFitsFormat(settings, ctx);
    autoFormatNeedsScore(settings, ctx);
    losslessRules(settings, ctx);
  },
);
export type SavedSettings = z.infer<typeof savedSettingsSchema>;
export type BatchOptions = z.infer<typeof batchOptionsFields>;

export const DEFAULT_SAVED_SETTINGS: SavedSettings = {
  ...DEFAULT_SETTINGS,
  priority: "normal",
  maxConcurrent: DEFAULT_MAX_CONCURRENT,
  pauseOnError: false,
};

/**
 * What each setting does, one sentence each: the OpenAPI document's parameter descriptions and the
 * /developers page's settings table read it. Typed by the shape, so a new setting cannot go undescribed.
 */
export const SETTING_DESCRIPTIONS: Record<keyof SavedSettings, string> = {
  quality: "The encoder's quality setting. A target, when given, chooses it instead.",
  format:
    "The output format. WebP output carries no metadata at all; AVIF carries the colour profile and EXIF; jxl is the JPEG these settings make, losslessly in JPEG XL (about 20% smaller, the same pixels, restorable). auto: the smallest file among formats at the score target (auto when none).",
  encoder: "The JPEG encoder. jpegli encodes JPEG only: with format=webp, leave encoder at mozjpeg.",
  mode: "speed encodes fastest; quality searches hardest for smaller files. Applies to MozJPEG, WebP and AVIF.",
  progressive: "A progressive JPEG, which loads in passes from coarse to sharp.",
  chromaSubsampling:
    "How much colour detail is kept: 4:4:4 all of it, 4:2:0 a quarter, for the smallest files. AVIF writes 4:2:2 as 4:2:0.",
  stripMetadata: "Removes EXIF (including GPS), XMP, IPTC and comments from a JPEG; the colour profile stays.",
  mozjpeg: "MozJPEG's trellis quantisation and tuned tables; false encodes like classic libjpeg. MozJPEG only.",
  optimizeForWeb: "Optimised Huffman tables for a smaller JPEG.",
  target: "Premium: search the quality for a goal. auto and score targets try both JPEG encoders.",
  maxWidth:
    "Resize to at most this many pixels wide (never enlarged); the score is measured against the resized photo.",
  maxHeight: "Resize to at most this many pixels high (never enlarged); with maxWidth, fit says how the box is filled.",
  fit: "inside keeps the whole photo within maxWidth × maxHeight; cover fills that box exactly with a centred crop.",
  widths:
    "Premium: a web set of these widths (e.g. 640,1280,1920,2560; none wider than the photo), as a ZIP with picture.html and manifest.json.",
  formats:
    "A web set's formats (e.g. avif,jpeg), every file at the target (auto: SSIMULACRA 2 ≥ 80); with format=auto, the formats it may choose. jxl in a set is each width's JPEG, losslessly.",
  archive:
    "With format=jxl: the uploaded file itself as JPEG XL, untouched and restorable byte for byte (no re-encode, no metadata change).",
  priority: "Order among this account's own jobs.",
  maxConcurrent: "Premium: how many of this account's jobs run at once.",
  pauseOnError: "Pause the batch when a job fails (one image per request: no effect).",
};

const COMPRESS_KEYS = Object.keys(compressSettingsFields.shape) as (keyof CompressSettings)[];

/** The part of the settings that reaches the codecs. */
export function compressSettingsOf(s: SavedSettings): CompressSettings {
  return Object.fromEntries(COMPRESS_KEYS.map((k) => [k, s[k]])) as CompressSettings;
}

/**
 * Stored settings as they are now: keys added since the row was written take their defaults (so a
 * new setting needs no data migration), unknown keys go, and the whole is validated.
 */
export function parseStoredSettings(json: string): SavedSettings {
  return savedSettingsSchema.parse({ ...DEFAULT_SAVED_SETTINGS, ...JSON.parse(json) });
}

/**
 * The settings as multipart text fields (POST /api/compress sends "quality (number sent as text)"):
 * numbers and booleans as text, the target as JSON (none when null).
 */
export function settingsToFields(s: Partial<SavedSettings>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(s)) {
    if (value === null || value === undefined) continue;
    fields[key] = Array.isArray(value)
      ? value.join(",")
      : typeof value === "object"
      ? JSON.stringify(value)
      : String(value);
  }
  return fields;
}

/** Settings whose default is null (none) and whose value is a whole number. */
const NULLABLE_NUMBERS = new Set<keyof SavedSettings>(["maxWidth", "maxHeight"]);
/** Settings that are lists: comma-separated in text (`640,1280`), or the JSON array the form may send. */
const LISTS = new Set<keyof SavedSettings>(["widths", "formats"]);

function listFromText(text: string, numbers: boolean): unknown {
  if (text.trim().startsWith("[")) return parseJson(text);
  const items = text.split(",").map((item) => item.trim());
  return numbers ? items.map((item) => (/^\d+$/.test(item) ? Number(item) : item)) : items;
}

/**
 * Text fields back into typed values, by each setting's kind (its default's type); other keys are
 * ignored and a value that does not convert is kept as text for the schema to refuse by name.
 */
export function settingsFromFields(fields: Record<string, string>): Partial<Record<keyof SavedSettings, unknown>> {
  const out: Partial<Record<keyof SavedSettings, unknown>> = {};
  for (const key of Object.keys(DEFAULT_SAVED_SETTINGS) as (keyof SavedSettings)[]) {
    const text = fields[key];
    if (text === undefined) continue;
    const kind = key === "target"
      ? "object"
      : NULLABLE_NUMBERS.has(key)
      ? "number"
      : LISTS.has(key)
      ? "list"
      : typeof DEFAULT_SAVED_SETTINGS[key];
    out[key] = kind === "list"
      ? listFromText(text, key === "widths")
      : kind === "number" && /^\d+$/.test(text)
      ? Number(text)
      : kind === "boolean" && (text === "true" || text === "false")
      ? text === "true"
      : kind === "object"
      ? targetFromText(text)
      : text;
  }
  return out;
}

/**
 * A target as text: JSON (`{"kind":"size","kb":200}`, as the web form sends it) or a short form
 * (`auto`, `size:200`, `score:85`; the CLI and API users type these). Converted here only; what
 * does not convert is handed on as it is for the schema to refuse by name.
 */
export function targetFromText(text: string): unknown {
  const short = text.match(/^(auto|size|score)(?::(.*))?$/);
  if (!short) return parseJson(text);
  const [, kind, value] = short;
  if (kind === "auto") return value === undefined ? { kind: "auto" } : text;
  if (value === undefined) return text;
  const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  return kind === "size" ? { kind: "size", kb: n } : { kind: "quality", score: n };
}

/** A target's short form (`auto`, `size:200`, `score:85`), the inverse of `targetFromText`. */
export function targetToText(target: Target): string {
  return target.kind === "auto" ? "auto" : target.kind === "size" ? `size:${target.kb}` : `score:${target.score}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * POST /api/jobs/:id/recompress and /api/batches/:id/recompress: the settings to compress the kept
 * originals with, as on screen; the batch options are optional (the user's saved ones otherwise).
 */
export const recompressSchema = z.object({
  settings: compressSettingsFields.extend(batchOptionsFields.partial().shape).superRefine(encoderFitsFormat),
});
export type RecompressRequest = z.infer<typeof recompressSchema>;
export type RecompressSettings = RecompressRequest["settings"];

/** Re-compressions of one upload that cost no quota on the day it was charged (issue 15: bounded, not unlimited work). */
export const FREE_RECOMPRESSIONS_PER_IMAGE = 5;

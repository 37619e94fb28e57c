/**
 * One source of format facts (issue 30, DESIGN §4): every output format's label, media type,
 * extension, encoders (the default first), the settings that apply to it, alpha and the metadata it
 * carries. The codec registry is typed against it, and validation, file names, content types,
 * OpenAPI, the CLI and both settings forms derive from it. Adding a format is a codec folder, one
 * entry here and its tests.
 */

/** Settings that apply to some formats only (quality, target and the batch options apply to all). */
export type FormatSetting = "encoder" | "mode" | "progressive" | "mozjpeg" | "optimizeForWeb" | "chromaSubsampling";

/**
 * What of the source's metadata a format's output carries, under the stripMetadata rule (DESIGN §4): "all"
 * every kept segment (a JPEG: EXIF, XMP, IPTC, comments, ICC); "icc-exif" the ICC profile and, unless
 * stripped, EXIF (with its GPS), as the container holds them; "none" nothing at all.
 */
export type FormatMetadata = "all" | "icc-exif" | "none";

export interface FormatFacts {
  label: string;
  mimeType: string;
  /** Without the dot. */
  extension: string;
  /** The codec ids that write it, the default first: a score goal searches all of them. */
  encoders: readonly [string, ...string[]];
  settings: readonly FormatSetting[];
  /** Whether the format can hold transparency (our JPEG sources have none; for PNG input later). */
  alpha: boolean;
  /** The source's metadata the output carries (`FormatMetadata`). */
  metadata: FormatMetadata;
  /**
   * A lossless container of another format's output (JPEG XL of a JPEG, issue 32): its encoders and settings
   * are that format's, and the file it holds comes back byte for byte. (A string here: typing it by the manifest's
   * own keys would make the manifest's type circular; `losslessOf()` reads it typed.)
   */
  losslessOf?: string;
}

export const FORMATS = {
  jpeg: {
    label: "JPEG",
    mimeType: "image/jpeg",
    extension: "jpg",
    encoders: ["mozjpeg", "jpegli"],
    settings: ["encoder", "mode", "progressive", "mozjpeg", "optimizeForWeb", "chromaSubsampling"],
    alpha: false,
    metadata: "all",
  },
  webp: {
    label: "WebP",
    mimeType: "image/webp",
    extension: "webp",
    encoders: ["webp"],
    settings: ["mode"],
    alpha: true,
    metadata: "none",
  },
  avif: {
    label: "AVIF",
    mimeType: "image/avif",
    extension: "avif",
    encoders: ["avif"],
    settings: ["mode", "chromaSubsampling"],
    alpha: true,
    metadata: "icc-exif",
  },
  jxl: {
    label: "JPEG XL",
    mimeType: "image/jxl",
    extension: "jxl",
    encoders: ["mozjpeg", "jpegli"],
    settings: ["encoder", "mode", "progressive", "mozjpeg", "optimizeForWeb", "chromaSubsampling"],
    alpha: false,
    metadata: "all",
    losslessOf: "jpeg",
  },
} as const satisfies Record<string, FormatFacts>;

export type OutputFormat = keyof typeof FORMATS;
export const OUTPUT_FORMATS = Object.keys(FORMATS) as [OutputFormat, ...OutputFormat[]];

/** Every codec that can make a job's bytes (reported per job as `encoder`). */
export type CodecId = (typeof FORMATS)[OutputFormat]["encoders"][number];
export const CODEC_IDS = [...new Set(OUTPUT_FORMATS.flatMap((f) => FORMATS[f].encoders))] as [CodecId, ...CodecId[]];

/** The `encoder` setting's values: the formats' choosable encoders (JPEG's), the default first. */
export const ENCODERS = FORMATS.jpeg.encoders;
export type Encoder = (typeof ENCODERS)[number];

export const formatFacts = (format: OutputFormat): FormatFacts => FORMATS[format];

/** The format whose output `format` holds losslessly (JPEG XL: JPEG), or null for a format of its own. */
export const losslessOf = (format: OutputFormat): OutputFormat | null =>
  (FORMATS[format] as FormatFacts).losslessOf as OutputFormat | undefined ?? null;

/** The format the encoders write for `format`: its own, or the one it holds losslessly. */
export const encodedFormat = (format: OutputFormat): OutputFormat => losslessOf(format) ?? format;

/**
 * The `format` setting: an output format, or `auto` (issue 30, item 4): the smallest file among the
 * allowed formats (the `formats` setting) that meets the score goal, predicted on the mosaic first.
 */
export const AUTO_FORMAT = "auto";
export type FormatChoice = OutputFormat | typeof AUTO_FORMAT;
export const FORMAT_CHOICES = [...OUTPUT_FORMATS, AUTO_FORMAT] as [FormatChoice, ...FormatChoice[]];

/** The formats a job may write: the chosen one, or on auto the allowed ones. */
export const candidateFormats = (s: { format: FormatChoice; formats: readonly OutputFormat[] }): OutputFormat[] =>
  s.format === AUTO_FORMAT ? [...s.formats] : [s.format];

/** How a format choice reads in a form or on a card. */
export const choiceLabel = (choice: FormatChoice): string =>
  choice === AUTO_FORMAT ? "Automatic" : FORMATS[choice].label;

/** What a job reports when the format was chosen automatically: the winner and the best other format. */
export interface FormatChoiceReport {
  /** The format written. */
  format: OutputFormat;
  /** The smallest other allowed format, null when only one was allowed. */
  against: OutputFormat | null;
  /** Its bytes at the same goal: measured at full size, or predicted from the mosaic (`measured` false). */
  againstBytes: number | null;
  measured: boolean;
}

/** "AVIF chosen: 31% smaller than JPEG" ("about 31%" when the other was predicted, not encoded). */
export function formatChoiceText(report: FormatChoiceReport, bytes: number): string {
  const label = FORMATS[report.format].label;
  if (!report.against || !report.againstBytes) return `${label}, the only format allowed`;
  const other = FORMATS[report.against].label;
  const saved = Math.round((1 - bytes / report.againstBytes) * 100);
  return saved > 0
    ? `${label} chosen: ${report.measured ? "" : "about "}${saved}% smaller than ${other}`
    : `${label} chosen over ${other}`;
}

/** The output format of a media type, or null when the engine writes no such format. */
export function formatOfMimeType(mimeType: string): OutputFormat | null {
  const type = mimeType.split(";")[0]!.trim().toLowerCase();
  return OUTPUT_FORMATS.find((f) => FORMATS[f].mimeType === type) ?? null;
}

/** Whether `setting` changes what `format` makes. */
export const appliesTo = (format: OutputFormat, setting: FormatSetting): boolean =>
  (FORMATS[format].settings as readonly FormatSetting[]).includes(setting);

/** Whether `setting` changes what these settings may make (on auto: any format it may choose). */
export const settingApplies = (
  s: { format: FormatChoice; formats: readonly OutputFormat[] },
  setting: FormatSetting,
): boolean => candidateFormats(s).some((f) => appliesTo(f, setting));

/** The encoders a format can choose between (more than one: the `encoder` setting and score searches apply). */
export const hasEncoderChoice = (format: FormatChoice): boolean =>
  format !== AUTO_FORMAT && FORMATS[format].encoders.length > 1;

/**
 * Whether `encoder` may be sent with `format`: one of its encoders, or the default encoder (the
 * setting left as it is). Anything else is a mistake, not a preference to ignore.
 */
export const encoderFits = (format: FormatChoice, encoder: Encoder): boolean =>
  encoder === ENCODERS[0] || format === AUTO_FORMAT ||
  (FORMATS[format].encoders as readonly string[]).includes(encoder);

/** The encoder to send with `format`: the chosen one where it fits, else the default (kept in a form, not sent). */
export const fittingEncoder = (format: FormatChoice, encoder: Encoder): Encoder =>
  encoderFits(format, encoder) ? encoder : ENCODERS[0];

/** The error for an encoder that does not fit its format, e.g. "jpegli encodes JPEG only; use …". */
export function encoderFormatError(format: OutputFormat, encoder: Encoder): string {
  // A lossless container (JPEG XL) holds another format's encode: the encoder writes that one.
  const writes = OUTPUT_FORMATS.filter((f) =>
    !losslessOf(f) && (FORMATS[f].encoders as readonly string[]).includes(encoder)
  );
  return `${encoder} encodes ${writes.map((f) => FORMATS[f].label).join(" and ")} only; use encoder=${
    ENCODERS[0]
  } with format=${format}`;
}

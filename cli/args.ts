/**
 * The CLI's command line: `compress PATH... [flags]`, read with node:util's parseArgs (no JSR here) and
 * checked against the contract's names and ranges, so a bad flag is refused before any request.
 */
import { parseArgs } from "node:util";
import { API_KEY_PREFIX } from "../contract/api-keys.ts";
import {
  type Encoder,
  ENCODERS,
  type Fit,
  FITS,
  OUTPUT_FORMATS,
  type OutputFormat,
  QUALITY_RANGE,
  RESIZE_RANGE,
  TARGET_KB_RANGE,
  TARGET_SCORE_RANGE,
} from "../contract/settings.ts";
import {
  AUTO_FORMAT,
  encoderFits,
  encoderFormatError,
  FORMAT_CHOICES,
  type FormatChoice,
  FORMATS,
} from "../contract/formats.ts";
import { DEFAULT_SET_FORMATS, DEFAULT_SET_WIDTHS, MAX_SET_WIDTHS } from "../contract/web-sets.ts";
import { DEFAULT_TIMEOUT_SECONDS } from "./client.ts";

/** A failure the CLI reports in one line and ends with `exitCode`. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = "CliError";
  }
}

/** A mistake on the command line (exit 2, with the usage text). */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2);
    this.name = "UsageError";
  }
}

export const DEFAULT_URL = "http://localhost:8000";
export const DEFAULT_CONCURRENCY = 2;
export const CONCURRENCY_RANGE = { min: 1, max: 8 } as const;
/** --timeout in seconds: an hour at most, so a typo cannot hang a run for days. */
export const TIMEOUT_RANGE = { min: 1, max: 3600 } as const;
export const ENV_KEY = "SQUEEZE_API_KEY";
export const ENV_URL = "SQUEEZE_API_URL";

export const USAGE = `Usage: squeeze compress PATH... --out DIR [options]
       squeeze restore FILE.jxl... --out DIR

Compresses JPEG files through the SqueezeJPEG API. PATH is a file or a folder
(searched recursively for .jpg/.jpeg); the results keep their layout under DIR.
restore gives back the original JPEG of each .jxl made from a JPEG (by us, with
--format jxl, or by libjxl's cjxl), byte for byte, as NAME.jpg under DIR.

Options:
  --out DIR           where the results go (required unless --in-place)
  --in-place          replace each input with its result (JPEG output only)
  --quality N         ${QUALITY_RANGE.min}-${QUALITY_RANGE.max}
  --target T          auto | size:KB (${TARGET_KB_RANGE.min}-${TARGET_KB_RANGE.max}) | score:S (${TARGET_SCORE_RANGE.min}-${TARGET_SCORE_RANGE.max}) (Premium)
  --format F          ${FORMAT_CHOICES.join(" | ")} (auto: the smallest of --formats at the target)
  --encoder E         ${ENCODERS.join(" | ")}
  --max-width N       resize to at most N pixels wide, ${RESIZE_RANGE.min}-${RESIZE_RANGE.max} (never enlarged)
  --max-height N      resize to at most N pixels high
  --fit F             ${FITS.join(" | ")}: within the box (default), or filling it with a centred crop
  --widths W,W,...    a web set of these widths (e.g. ${DEFAULT_SET_WIDTHS.join(",")}; Premium): a folder per
                      photo with its files, picture.html and manifest.json
  --archive           with --format jxl: each upload itself as JPEG XL, untouched (restorable)
  --formats F,F,...   a set's formats or those --format auto may choose, of ${OUTPUT_FORMATS.join(", ")} (default ${
  DEFAULT_SET_FORMATS.join(",")
})
  --concurrency N     files in flight, ${CONCURRENCY_RANGE.min}-${CONCURRENCY_RANGE.max} (default ${DEFAULT_CONCURRENCY})
  --timeout SECONDS   give a file up when no bytes move either way for this long,
                      ${TIMEOUT_RANGE.min}-${TIMEOUT_RANGE.max} (default ${DEFAULT_TIMEOUT_SECONDS})
  --json              one JSON object per file and a summary on stdout
  --key KEY           API key (default: $${ENV_KEY})
  --url URL           server (default: $${ENV_URL} or ${DEFAULT_URL})
  -h, --help          this text
`;

/** What a usage error prints under its message. */
export const SHORT_USAGE =
  `Usage: squeeze compress PATH... (--out DIR | --in-place) [--quality N] [--target auto|size:KB|score:S]
         [--format ${FORMAT_CHOICES.join("|")}] [--encoder ${
    ENCODERS.join("|")
  }] [--max-width N] [--max-height N] [--fit ${FITS.join("|")}]
         [--json] [--concurrency N] [--timeout SECONDS]
         [--key KEY] [--url URL]
Run with --help for more.
`;

export interface CompressOptions {
  paths: string[];
  /** null with `inPlace`. */
  out: string | null;
  inPlace: boolean;
  quality?: number;
  /** As the server reads it: `auto`, `size:200`, `score:85`. */
  target?: string;
  format?: FormatChoice;
  encoder?: Encoder;
  maxWidth?: number;
  maxHeight?: number;
  fit?: Fit;
  /** A web set: the answer is its ZIP, unpacked into a folder beside where the result would go. */
  widths?: number[];
  formats?: OutputFormat[];
  /** With format jxl: the upload itself, losslessly. */
  archive?: boolean;
  /** `restore`: .jxl files in, their JPEGs out (no settings). */
  restore?: boolean;
  json: boolean;
  concurrency: number;
  /** Seconds without a byte either way before a file is given up. */
  timeout: number;
  key: string;
  /** The server's base URL, without a trailing slash. */
  url: string;
}

export type Command = { kind: "help" } | { kind: "compress"; options: CompressOptions };

/** The settings flags: `restore` takes none of them. */
const SETTING_FLAGS = [
  "in-place",
  "quality",
  "target",
  "format",
  "encoder",
  "max-width",
  "max-height",
  "fit",
  "widths",
  "formats",
  "archive",
] as const;

const FLAGS = {
  out: { type: "string" },
  "in-place": { type: "boolean" },
  quality: { type: "string" },
  target: { type: "string" },
  format: { type: "string" },
  encoder: { type: "string" },
  "max-width": { type: "string" },
  "max-height": { type: "string" },
  fit: { type: "string" },
  widths: { type: "string" },
  formats: { type: "string" },
  archive: { type: "boolean" },
  json: { type: "boolean" },
  concurrency: { type: "string" },
  timeout: { type: "string" },
  key: { type: "string" },
  url: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Reads `argv` (without the program name) and the environment; throws UsageError on anything wrong. */
export function parseCommand(argv: string[], env: Record<string, string | undefined> = {}): Command {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true });
  } catch (err) {
    // node's messages go on to explain `--`; the first sentence says what is wrong.
    throw new UsageError((err as Error).message.split(". ")[0]!.replace(/\.$/, ""));
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    if (values.help) return { kind: "help" };
    throw new UsageError("Missing the command: compress or restore");
  }
  const [command, ...paths] = positionals;
  if (command === "help") return { kind: "help" };
  if (command !== "compress" && command !== "restore") {
    throw new UsageError(`Unknown command '${command}' (the commands are: compress, restore)`);
  }
  const restore = command === "restore";
  if (paths.length === 0) throw new UsageError(`Give at least one file or folder to ${command}`);
  const given = SETTING_FLAGS.find((flag) => values[flag] !== undefined);
  if (restore && given) throw new UsageError(`restore gives back the original JPEG: --${given} does not apply`);

  const inPlace = values["in-place"] ?? false;
  const out = values.out ?? null;
  if (inPlace && out !== null) throw new UsageError("--in-place replaces the inputs; leave out --out");
  if (!inPlace && (out === null || out === "")) {
    throw new UsageError("--out DIR is required (or --in-place to replace the inputs)");
  }

  const quality = values.quality === undefined ? undefined : wholeNumber("--quality", values.quality, QUALITY_RANGE);
  const format = values.format === undefined ? undefined : oneOf("--format", values.format, FORMAT_CHOICES);
  const encoder = values.encoder === undefined ? undefined : oneOf("--encoder", values.encoder, ENCODERS);
  if (format && format !== AUTO_FORMAT && encoder && !encoderFits(format, encoder)) {
    throw new UsageError(encoderFormatError(format, encoder).replace(/(\w+)=/g, "--$1 "));
  }
  if (format && format !== "jpeg" && inPlace) {
    const label = format === AUTO_FORMAT ? "another format" : FORMATS[format].label;
    throw new UsageError(
      `--in-place keeps the .jpg names, so it cannot write ${label}; use --out with --format ${format}`,
    );
  }
  const target = values.target === undefined ? undefined : parseTarget(values.target);
  const maxWidth = values["max-width"] === undefined
    ? undefined
    : wholeNumber("--max-width", values["max-width"], RESIZE_RANGE);
  const maxHeight = values["max-height"] === undefined
    ? undefined
    : wholeNumber("--max-height", values["max-height"], RESIZE_RANGE);
  const fit = values.fit === undefined ? undefined : oneOf("--fit", values.fit, FITS);
  const widths = values.widths === undefined
    ? undefined
    : listOf("--widths", values.widths, (item) => wholeNumber("--widths", item, RESIZE_RANGE), MAX_SET_WIDTHS);
  const formats = values.formats === undefined
    ? undefined
    : listOf("--formats", values.formats, (item) => oneOf("--formats", item, OUTPUT_FORMATS), OUTPUT_FORMATS.length);
  if (formats && !widths && format !== AUTO_FORMAT) {
    throw new UsageError("--formats are a web set's (give its --widths) or those --format auto may choose");
  }
  const archive = values.archive ?? false;
  if (archive && format !== "jxl") {
    throw new UsageError("--archive keeps each upload itself as JPEG XL: add --format jxl");
  }
  if (format === AUTO_FORMAT && target?.startsWith("size:")) {
    throw new UsageError(
      "--format auto chooses the smallest file at a score: use --target auto or score:S, not a size",
    );
  }
  if (widths && inPlace) throw new UsageError("--in-place replaces each JPEG with one file; a web set needs --out");
  const concurrency = values.concurrency === undefined
    ? DEFAULT_CONCURRENCY
    : wholeNumber("--concurrency", values.concurrency, CONCURRENCY_RANGE);
  const timeout = values.timeout === undefined
    ? DEFAULT_TIMEOUT_SECONDS
    : wholeNumber("--timeout", values.timeout, TIMEOUT_RANGE);

  const key = (values.key ?? env[ENV_KEY] ?? "").trim();
  if (!key) throw new UsageError(`No API key: set ${ENV_KEY} or pass --key (create one on the Developers page)`);
  if (!key.startsWith(API_KEY_PREFIX)) {
    throw new UsageError(`That is not a SqueezeJPEG API key: keys start with ${API_KEY_PREFIX}`);
  }
  const url = parseUrl(values.url ?? (env[ENV_URL] || DEFAULT_URL));

  return {
    kind: "compress",
    options: {
      paths,
      out,
      inPlace,
      quality,
      target,
      format,
      encoder,
      maxWidth,
      maxHeight,
      fit,
      widths,
      formats,
      ...(archive ? { archive } : {}),
      ...(restore ? { restore } : {}),
      json: values.json ?? false,
      concurrency,
      timeout,
      key,
      url,
    },
  };
}

type Range = { readonly min: number; readonly max: number };

function wholeNumber(flag: string, text: string, range: Range): number {
  const n = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < range.min || n > range.max) {
    throw new UsageError(`${flag} must be a whole number from ${range.min} to ${range.max} (got '${text}')`);
  }
  return n;
}

/** A comma-separated flag: each item read by `item`, 1 to `max` of them, each once. */
function listOf<T>(flag: string, text: string, item: (text: string) => T, max: number): T[] {
  const items = text.split(",").map((part) => part.trim()).filter((part) => part !== "").map(item);
  if (items.length === 0 || items.length > max || new Set(items).size !== items.length) {
    throw new UsageError(`${flag} takes 1 to ${max} different values, comma-separated (got '${text}')`);
  }
  return items;
}

function oneOf<T extends string>(flag: string, text: string, values: readonly T[]): T {
  const value = text.trim().toLowerCase();
  if (!(values as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${values.join(", ")} (got '${text}')`);
  }
  return value as T;
}

/** `auto`, `size:KB` or `score:S`, checked against the contract's ranges; returned as the server reads it. */
export function parseTarget(text: string): string {
  const value = text.trim().toLowerCase();
  if (value === "auto") return value;
  const size = /^size:(\d+)$/.exec(value);
  if (size) {
    const kb = Number(size[1]);
    if (kb >= TARGET_KB_RANGE.min && kb <= TARGET_KB_RANGE.max) return `size:${kb}`;
    throw new UsageError(`--target size:KB takes ${TARGET_KB_RANGE.min} to ${TARGET_KB_RANGE.max} KB (got '${text}')`);
  }
  const score = /^score:(\d+(?:\.\d+)?)$/.exec(value);
  if (score) {
    const s = Number(score[1]);
    if (s >= TARGET_SCORE_RANGE.min && s <= TARGET_SCORE_RANGE.max) return `score:${s}`;
    throw new UsageError(
      `--target score:S takes ${TARGET_SCORE_RANGE.min} to ${TARGET_SCORE_RANGE.max} (got '${text}')`,
    );
  }
  throw new UsageError(`--target must be auto, size:KB or score:S (got '${text}')`);
}

function parseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new UsageError(`--url must be an http(s) URL such as ${DEFAULT_URL} (got '${text}')`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`--url must be an http(s) URL such as ${DEFAULT_URL} (got '${text}')`);
  }
  if (url.search || url.hash) throw new UsageError(`--url takes no query or fragment (got '${text}')`);
  return url.href.replace(/\/+$/, "");
}

/** The query string of `POST /api/v1/compress`: only the settings given (the server's defaults otherwise). */
export function settingsQuery(
  o: Pick<
    CompressOptions,
    "quality" | "target" | "format" | "encoder" | "maxWidth" | "maxHeight" | "fit" | "widths" | "formats" | "archive"
  >,
): URLSearchParams {
  const q = new URLSearchParams();
  if (o.quality !== undefined) q.set("quality", String(o.quality));
  if (o.target !== undefined) q.set("target", o.target);
  if (o.format !== undefined) q.set("format", o.format);
  if (o.encoder !== undefined) q.set("encoder", o.encoder);
  if (o.maxWidth !== undefined) q.set("maxWidth", String(o.maxWidth));
  if (o.maxHeight !== undefined) q.set("maxHeight", String(o.maxHeight));
  if (o.fit !== undefined) q.set("fit", o.fit);
  if (o.widths !== undefined) q.set("widths", o.widths.join(","));
  if (o.formats !== undefined) q.set("formats", o.formats.join(","));
  if (o.archive) q.set("archive", "true");
  return q;
}

/**
 * Web sets (issue 30, item 5; DESIGN §12): one photo → the files a page needs, widths × formats, every
 * file at one measured target against the original resized to its width, and the `<picture>` element
 * that serves them. Shared by the engine (which writes picture.html and manifest.json into the set's
 * ZIP), the server, the web app ("Copy HTML", what a phone and a desktop load) and the CLI.
 */
import { FORMATS, type OutputFormat } from "./formats.ts";

export const DEFAULT_SET_WIDTHS = [640, 1280, 1920, 2560] as const;
export const DEFAULT_SET_FORMATS: readonly OutputFormat[] = ["avif", "jpeg"];
export const MAX_SET_WIDTHS = 8;
/**
 * `<source>` order: the smallest formats first; the browser takes the first it supports. JPEG XL leads (it is
 * each width's JPEG, losslessly: the same pixels, smaller); the JPEG is the `<img>`.
 */
export const PICTURE_ORDER: readonly OutputFormat[] = ["jxl", "avif", "webp", "jpeg"];
export const DEFAULT_SIZES = "100vw";
/** The viewport widths the page-weight lines assume (CSS px × device pixel ratio, rounded to a common phone and desktop). */
export const PHONE_WIDTH = 640;
export const DESKTOP_WIDTH = 1920;

/** One file of a set, as manifest.json lists it. */
export interface SetFile {
  file: string;
  format: OutputFormat;
  width: number;
  height: number;
  bytes: number;
  /** SSIMULACRA 2 against the original resized to this width. */
  score: number;
}

export interface WebSet {
  /** The photo's base name: the ZIP's folder and each file's prefix. */
  name: string;
  files: SetFile[];
}

/** The widths a set makes of a `sourceWidth`-wide photo: none wider than the source, and the source's own if all are. */
export function setWidths(wanted: readonly number[], sourceWidth: number): number[] {
  const fitting = [...new Set(wanted.filter((w) => w <= sourceWidth))].sort((a, b) => a - b);
  return fitting.length > 0 ? fitting : [sourceWidth];
}

/** The set's own files in its ZIP, beside the images. */
export const SET_PICTURE_FILE = "picture.html";
export const SET_MANIFEST_FILE = "manifest.json";

/** `name-1280.avif` */
export const setFileName = (name: string, width: number, format: OutputFormat) =>
  `${name}-${width}.${FORMATS[format].extension}`;

/** The set's formats in `<picture>` order, the fallback (`<img>`) last: JPEG when the set has it. */
export function pictureFormats(set: WebSet): OutputFormat[] {
  const present = new Set(set.files.map((f) => f.format));
  return PICTURE_ORDER.filter((f) => present.has(f));
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The `<picture>` element: a `<source type srcset>` per format but the fallback, then the fallback's `<img>`
 * with `srcset` by width, `sizes`, the largest file's `width`/`height` (layout stability), `alt=""`,
 * `loading="lazy"` and `decoding="async"`. `base` prefixes each file (e.g. "images/").
 */
export function pictureHtml(set: WebSet, sizes = DEFAULT_SIZES, base = ""): string {
  const formats = pictureFormats(set);
  const fallback = formats[formats.length - 1]!;
  const srcset = (format: OutputFormat) =>
    set.files.filter((f) => f.format === format).sort((a, b) => a.width - b.width)
      .map((f) => `${escapeAttribute(base + f.file)} ${f.width}w`).join(", ");
  const largest = set.files.filter((f) => f.format === fallback).reduce((a, b) => (b.width > a.width ? b : a));
  const lines = ["<picture>"];
  for (const format of formats.slice(0, -1)) {
    lines.push(
      `  <source type="${FORMATS[format].mimeType}" srcset="${srcset(format)}" sizes="${escapeAttribute(sizes)}">`,
    );
  }
  lines.push(
    `  <img src="${escapeAttribute(base + largest.file)}" srcset="${srcset(fallback)}" sizes="${
      escapeAttribute(sizes)
    }" width="${largest.width}" height="${largest.height}" alt="" loading="lazy" decoding="async">`,
  );
  lines.push("</picture>");
  return lines.join("\n");
}

/** manifest.json: the set's files, as the API and the CLI write it. */
export const manifestJson = (set: WebSet) => JSON.stringify({ name: set.name, files: set.files }, null, 2) + "\n";

/**
 * What a browser of `viewportWidth` device pixels loads from the set with `sizes="100vw"`: the narrowest
 * width that covers it (else the widest), in the first format of `<picture>` order that every current browser
 * takes (AVIF today; a JPEG-only set loads its JPEG). JPEG XL is not counted: not every browser shows it yet.
 */
export function loadedFile(set: WebSet, viewportWidth: number): SetFile {
  const formats = pictureFormats(set);
  const format = formats.find((f) => f !== "jxl") ?? formats[0]!;
  const files = set.files.filter((f) => f.format === format).sort((a, b) => a.width - b.width);
  return files.find((f) => f.width >= viewportWidth) ?? files[files.length - 1]!;
}

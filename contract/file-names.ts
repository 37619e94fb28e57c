/**
 * The one sanitizer for names that came from users (upload file names), used
 * for what we store, ZIP entries and Content-Disposition alike: no path, no
 * control or bidirectional-override characters, nothing a file system refuses,
 * a bounded length.
 */
import { type Encoder, ENCODERS, type FormatChoice, FORMATS, hasEncoderChoice, type OutputFormat } from "./formats.ts";

/** Longest base name kept (code points), before the extension. */
export const MAX_BASE_NAME = 120;

// C0/C1 controls and DEL; bidi marks, embeddings, overrides and isolates; zero-width characters and BOM.
// deno-lint-ignore no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
// Refused by Windows file systems (and '/' by every one).
const RESERVED_CHARS = /[<>:"/\\|?*]/g;
const RESERVED_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/** A user's file name made safe to store and hand back; "image" when nothing is left. */
export function safeFileName(name: string): string {
  const last = name.split(/[/\\]/).pop() ?? "";
  let safe = last.normalize("NFC").replace(INVISIBLE, "").replace(RESERVED_CHARS, "_")
    .replace(/\s+/g, " ").replace(/^[\s.]+|[\s.]+$/g, "");
  if (RESERVED_NAMES.test(safe)) safe = `_${safe}`;
  const points = [...safe];
  if (points.length > MAX_BASE_NAME + 8) {
    const dot = safe.lastIndexOf(".");
    const ext = dot > 0 && safe.length - dot <= 8 ? safe.slice(dot) : "";
    safe = points.slice(0, MAX_BASE_NAME).join("").replace(/[\s.]+$/, "") + ext;
  }
  return safe || "image";
}

/** The name a result is saved under: the safe base name with the output's real extension. */
export function downloadName(filename: string, format: OutputFormat): string {
  return `${resultBaseName(filename)}.${FORMATS[format].extension}`;
}

/** A result's base name: the upload's safe name without its extension (a web set's ZIP and folder are named so too). */
export function resultBaseName(filename: string): string {
  const base = safeFileName(filename).replace(/\.(jpe?g|jfif)$/i, "").replace(/[\s.]+$/, "") || "image";
  return [...base].slice(0, MAX_BASE_NAME).join("");
}

/**
 * "Download all": `squeezejpeg-2026-11-23-20-images.zip` (the UTC day, then the count of photos); with
 * every version, `squeezejpeg-2026-11-23-26-versions.zip`.
 */
export function allResultsZipName(day: string, count: number, allVersions = false): string {
  const noun = allVersions ? "version" : "image";
  return `squeezejpeg-${day}-${count}-${noun}${count === 1 ? "" : "s"}.zip`;
}

/** What a version's name is made of: the settings it was compressed with (contract/settings.ts). */
export interface VersionSettings {
  format: FormatChoice;
  encoder: Encoder;
  quality: number;
  target: { kind: "auto" } | { kind: "size"; kb: number } | { kind: "quality"; score: number } | null;
}

/** A version's settings as a short tag: `q70`, `jpegli-q80`, `auto`, `size200kb`, `score85` (WebP: `q70`). */
export function settingsTag(s: VersionSettings): string {
  const t = s.target;
  if (t?.kind === "auto") return "auto";
  if (t?.kind === "size") return `size${t.kb}kb`;
  if (t?.kind === "quality") return `score${String(t.score).replace(".", "_")}`;
  // The default encoder goes unsaid, and so does an encoder the format does not use.
  const named = s.encoder !== ENCODERS[0] && hasEncoderChoice(s.format) ? `${s.encoder}-` : "";
  return `${named}q${s.quality}`;
}

/**
 * "All versions": a version's download name tagged by its settings, `beach.q70.jpg`, `beach.auto.jpg`,
 * `beach.jpegli-q80.jpg`, `beach.size200kb.jpg`, `beach.score85.jpg`, `beach.q70.webp`. `format` is the
 * output's real one (a kept original stays a JPEG, whatever was asked).
 */
export function versionName(filename: string, settings: VersionSettings, format: OutputFormat): string {
  const plain = downloadName(filename, format);
  const dot = plain.lastIndexOf(".");
  return `${plain.slice(0, dot)}.${settingsTag(settings)}${plain.slice(dot)}`;
}

/** One ZIP entry to name: its wanted name, the photo (root job) it belongs to, and what tells it apart. */
export interface NamedEntry {
  name: string;
  /** The photo: the first upload's job id (`sourceJobId ?? id`). */
  photo: string;
  /** When the photo was uploaded (UTC), to tell apart different uploads sharing a name. */
  uploadedAt: Date;
  /** The photo's place in its upload (1 = the first file), for same-named files uploaded together. */
  position: number;
  /** This version's number within its photo (1 = the first upload), to tell apart same-settings versions. */
  version: number;
}

/** Inserts `.tag` before a name's extension. */
const tagged = (name: string, tag: string) => {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)}.${tag}${name.slice(dot)}` : `${name}.${tag}`;
};

/**
 * ZIP entry names without `(2)` suffixes (issue 24, item 4). A name wanted by one entry only stays as it
 * is. Different photos sharing a name: the first uploaded keeps it; a later upload is tagged with its
 * upload time (`beach.uploaded-2026-11-25-1210.jpg`, with the seconds when the minute is the same), and
 * same-named files of one upload with their place in it (`beach.file2.jpg`). Versions of one photo
 * sharing a name (the same settings twice, only in "All versions"): the latest keeps it, earlier ones are
 * tagged with their version number (`beach.q70.v2.jpg`; the first upload is v1). Case-insensitive, as
 * file systems compare.
 */
export function distinctEntryNames(entries: NamedEntry[]): string[] {
  const owner = new Map<string, NamedEntry>(); // per name: the earliest photo's latest version
  const before = (a: NamedEntry, b: NamedEntry) =>
    a.uploadedAt.getTime() - b.uploadedAt.getTime() || a.position - b.position;
  for (const e of entries) {
    const key = e.name.toLowerCase();
    const o = owner.get(key);
    if (!o || (e.photo !== o.photo && before(e, o) < 0) || (e.photo === o.photo && e.version > o.version)) {
      owner.set(key, e);
    }
  }
  const taken = new Set(entries.filter((e) => owner.get(e.name.toLowerCase()) === e).map((e) => e.name.toLowerCase()));
  const minute = (d: Date) => `uploaded-${d.toISOString().slice(0, 16).replace("T", "-").replace(":", "")}`;
  const second = (d: Date) => `${minute(d)}${d.toISOString().slice(17, 19)}`;
  return entries.map((e) => {
    const o = owner.get(e.name.toLowerCase())!;
    if (o === e) return e.name;
    const tags = o.photo === e.photo
      ? [`v${e.version}`]
      : minute(e.uploadedAt) !== minute(o.uploadedAt)
      ? [minute(e.uploadedAt), second(e.uploadedAt), `${second(e.uploadedAt)}.file${e.position}`]
      : second(e.uploadedAt) !== second(o.uploadedAt)
      ? [second(e.uploadedAt), `${second(e.uploadedAt)}.file${e.position}`]
      : [`file${e.position}`, `${second(e.uploadedAt)}.file${e.position}`];
    const candidates = [...tags, ...tags.map((t) => `${t}.v${e.version}`)].map((t) => tagged(e.name, t));
    const name = candidates.find((c) => !taken.has(c.toLowerCase())) ?? tagged(e.name, `${e.photo}.v${e.version}`);
    taken.add(name.toLowerCase());
    return name;
  });
}

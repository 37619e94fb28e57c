/**
 * The one sanitizer for names that came from users (upload file names), used
 * for what we store, ZIP entries and Content-Disposition alike: no path, no
 * control or bidirectional-override characters, nothing a file system refuses,
 * a bounded length.
 */

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
export function downloadName(filename: string, format: "jpeg" | "webp"): string {
  const base = safeFileName(filename).replace(/\.(jpe?g|jfif)$/i, "").replace(/[\s.]+$/, "") || "image";
  return `${[...base].slice(0, MAX_BASE_NAME).join("")}.${format === "webp" ? "webp" : "jpg"}`;
}

/** "Download all": `squeezejpeg-2026-11-23-20-images.zip` (the UTC day, then the count). */
export function allResultsZipName(day: string, count: number): string {
  return `squeezejpeg-${day}-${count}-image${count === 1 ? "" : "s"}.zip`;
}

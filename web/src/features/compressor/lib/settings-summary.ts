import { codecLabel } from "../../../../../contract/codec-labels.ts";
import { searchesEncoders } from "../../../../../contract/settings.ts";
import { appliesTo, AUTO_FORMAT, ENCODERS, FORMATS, type OutputFormat } from "../../../../../contract/formats.ts";
import { PICTURE_ORDER } from "../../../../../contract/web-sets.ts";
import { qualityText } from "../../../lib/quality-text.ts";
import type { SavedSettings } from "../data/settings.ts";

/**
 * The one-line summary of the settings the next upload uses: "Quality 80 · JPEG · metadata stripped" ("JPEG (jpegli)"),
 * "Target score 85 (Excellent) · JPEG · metadata stripped"; with a web set (Premium),
 * "Auto quality · web set: 4 widths × AVIF, JPEG · metadata stripped".
 */
export function settingsSummary(settings: SavedSettings, premium: boolean): string {
  const t = premium ? settings.target : null;
  if (premium && settings.widths) {
    // A set makes its own formats and widths (resize does not apply), at the target or auto.
    const set = webSetText(settings.widths, settings.formats);
    // What each file carries depends on its format; the choice is what the line says.
    const metadata = settings.stripMetadata ? "metadata stripped" : "metadata kept";
    return [qualityText(settings.quality, t ?? { kind: "auto" }), set, metadata].join(" · ");
  }
  if (settings.format === "jxl" && settings.archive) return "Archive: each upload itself as JPEG XL, untouched";
  if (settings.format === AUTO_FORMAT) {
    // The smallest of the allowed formats at the score (auto without a target); each keeps what its format holds.
    const metadata = settings.stripMetadata ? "metadata stripped" : "metadata kept";
    const format = `smallest of ${byPictureOrder(settings.formats).map((f) => FORMATS[f].label).join(", ")}`;
    const resize = resizeText(settings);
    return [qualityText(settings.quality, t ?? { kind: "auto" }), format, ...(resize ? [resize] : []), metadata]
      .join(" · ");
  }
  const quality = qualityText(settings.quality, t);
  const facts = FORMATS[settings.format];
  const metadata = facts.metadata === "none"
    ? "all metadata dropped"
    : settings.stripMetadata
    ? "metadata stripped"
    : facts.metadata === "icc-exif"
    ? "EXIF and colour profile kept"
    : "metadata kept";
  // The default encoder goes unsaid; a score target tries every encoder, so none is named then.
  const named = appliesTo(settings.format, "encoder") && settings.encoder !== ENCODERS[0] &&
    !searchesEncoders({ format: settings.format, target: t });
  const format = named ? `${facts.label} (${codecLabel(settings.encoder)})` : facts.label;
  const resize = resizeText(settings);
  return [quality, format, ...(resize ? [resize] : []), metadata].join(" · ");
}

/** Formats in `<picture>` order (the smallest usually first). */
function byPictureOrder(formats: readonly OutputFormat[]): OutputFormat[] {
  const rank = (f: OutputFormat) => {
    const i = PICTURE_ORDER.indexOf(f);
    return i === -1 ? PICTURE_ORDER.length : i;
  };
  return [...formats].sort((a, b) => rank(a) - rank(b));
}

/** "web set: 4 widths × AVIF, JPEG", the formats in `<picture>` order. */
export function webSetText(widths: readonly number[], formats: readonly OutputFormat[]): string {
  const labels = byPictureOrder(formats).map((f) => FORMATS[f].label);
  return `web set: ${widths.length} width${widths.length === 1 ? "" : "s"} × ${labels.join(", ")}`;
}

/** The resize box in words: "up to 1280 px wide", "up to 1280×720", "cropped to 1280×720"; null for none. */
export function resizeText(s: Pick<SavedSettings, "maxWidth" | "maxHeight" | "fit">): string | null {
  const { maxWidth: w, maxHeight: h } = s;
  if (w === null && h === null) return null;
  if (w !== null && h !== null) return s.fit === "cover" ? `cropped to ${w}×${h}` : `up to ${w}×${h}`;
  return w !== null ? `up to ${w} px wide` : `up to ${h} px high`;
}

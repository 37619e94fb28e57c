import { codecLabel } from "../../../../../contract/codec-labels.ts";
import { searchesEncoders } from "../../../../../contract/settings.ts";
import { qualityText } from "../../../lib/quality-text.ts";
import type { SavedSettings } from "../data/settings.ts";

/**
 * The one-line summary of the settings the next upload uses: "Quality 80 · JPEG · metadata stripped" ("JPEG (jpegli)"),
 * "Target score 85 (Excellent) · JPEG · metadata stripped".
 */
export function settingsSummary(settings: SavedSettings, premium: boolean): string {
  const t = premium ? settings.target : null;
  const quality = qualityText(settings.quality, t);
  const webp = settings.format === "webp";
  const metadata = webp ? "all metadata dropped" : settings.stripMetadata ? "metadata stripped" : "metadata kept";
  // MozJPEG is the default and goes unsaid; a score target tries both encoders, so none is named then.
  const format = webp
    ? "WebP"
    : settings.encoder === "mozjpeg" || searchesEncoders({ format: settings.format, target: t })
    ? "JPEG"
    : `JPEG (${codecLabel(settings.encoder)})`;
  return [quality, format, metadata].join(" · ");
}

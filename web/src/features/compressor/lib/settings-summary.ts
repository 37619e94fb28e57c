import { codecLabel } from "../../../../../contract/codec-labels.ts";
import { searchesEncoders } from "../../../../../contract/settings.ts";
import { scoreWord } from "../../../../../contract/score-words.ts";
import type { SavedSettings } from "../data/settings.ts";

/**
 * The one-line summary of the settings the next upload uses: "Quality 80 · JPEG · metadata stripped" ("JPEG (jpegli)"),
 * "Target score 85 (Excellent) · JPEG · metadata stripped".
 */
export function settingsSummary(settings: SavedSettings, premium: boolean): string {
  const t = premium ? settings.target : null;
  const quality = t === null
    ? `Quality ${settings.quality}`
    : t.kind === "size"
    ? `Target ${t.kb} KB`
    : t.kind === "quality"
    ? `Target score ${t.score} (${scoreWord(t.score).word})`
    : "Auto quality";
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

import { codecLabel } from "../../../../../contract/codec-labels.ts";
import { appliesTo, FORMATS, type FormatSetting, type OutputFormat } from "../../../../../contract/formats.ts";
import { qualityText } from "../../../lib/quality-text.ts";
import type { RecompressSettings } from "../../../../../contract/settings.ts";

/** The applied settings in words, for the toasts: "Quality 62 · JPEG (jpegli) 4:2:0 · progressive". */
export function previewSummary(s: RecompressSettings & { format: OutputFormat }): string {
  const quality = qualityText(s.quality, s.target);
  const has = (setting: FormatSetting) => appliesTo(s.format, setting);
  const format = [
    FORMATS[s.format].label,
    ...(has("encoder") ? [`(${codecLabel(s.encoder)})`] : []),
    ...(has("chromaSubsampling") ? [s.chromaSubsampling] : []),
  ].join(" ");
  return [quality, format, ...(has("progressive") && s.progressive ? ["progressive"] : [])].join(" · ");
}

import { codecLabel } from "../../../../../contract/codec-labels.ts";
import { qualityText } from "../../../lib/quality-text.ts";
import type { RecompressSettings } from "../../../../../contract/settings.ts";

/** The applied settings in words, for the toasts: "Quality 62 · JPEG (jpegli) 4:2:0 · progressive". */
export function previewSummary(s: RecompressSettings): string {
  const quality = qualityText(s.quality, s.target);
  const format = s.format === "webp" ? "WebP" : `JPEG (${codecLabel(s.encoder)}) ${s.chromaSubsampling}`;
  return [quality, format, ...(s.format === "jpeg" && s.progressive ? ["progressive"] : [])].join(" · ");
}

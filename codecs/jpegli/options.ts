/** Maps the product's settings to jpegli options (the table in codecs/README.md). */
import type { CompressSettings } from "../../contract/settings.ts";
import { defaults, type JpegliOptions, qualityToDistance } from "./meta.ts";

export function jpegliOptions(settings: CompressSettings, quality: number, grayscale: boolean): JpegliOptions {
  return {
    ...defaults,
    distance: qualityToDistance(quality),
    chroma: settings.chromaSubsampling,
    // jpegli's own progressive script (level 2, its default) when asked; otherwise sequential.
    progressiveLevel: settings.progressive ? 2 : 0,
    // Progressive output always gets optimised tables (as libjpeg forces); sequential follows optimizeForWeb.
    optimizeCoding: settings.optimizeForWeb || settings.progressive,
    grayscale,
  };
}

import type { CompressSettings } from "../../../../../contract/settings.ts";
import type { SavedSettings } from "../api/settings.ts";

/**
 * The compression settings of the panel, without the batch options, for a re-compression
 * (`recompressSchema`): a target only on Premium, as for an upload.
 */
export const compressSettingsOf = (s: SavedSettings, premium: boolean): CompressSettings => ({
  quality: s.quality,
  format: s.format,
  encoder: s.encoder,
  mode: s.mode,
  progressive: s.progressive,
  mozjpeg: s.mozjpeg,
  optimizeForWeb: s.optimizeForWeb,
  stripMetadata: s.stripMetadata,
  chromaSubsampling: s.chromaSubsampling,
  target: premium ? s.target : null,
});

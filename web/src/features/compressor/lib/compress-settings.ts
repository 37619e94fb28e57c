import type { CompressSettings, Encoder } from "../../../../../contract/settings.ts";
import type { SavedSettings } from "../api/settings.ts";

/**
 * The JPEG encoder the server is sent: the chosen one for JPEG output; WebP has its own encoder and the
 * server refuses jpegli with it (`ENCODER_FORMAT_ERROR`), so a jpegli kept in the panel goes as mozjpeg.
 */
export const encoderFor = (s: Pick<SavedSettings, "format" | "encoder">): Encoder =>
  s.format === "webp" ? "mozjpeg" : s.encoder;

/** The panel's settings as the server accepts them (`PUT /api/settings`): the encoder fits the format. */
export const savableSettings = (s: SavedSettings): SavedSettings => ({ ...s, encoder: encoderFor(s) });

/**
 * The compression settings of the panel, without the batch options, for a re-compression
 * (`recompressSchema`): a target only on Premium, as for an upload.
 */
export const compressSettingsOf = (s: SavedSettings, premium: boolean): CompressSettings => ({
  quality: s.quality,
  format: s.format,
  encoder: encoderFor(s),
  mode: s.mode,
  progressive: s.progressive,
  mozjpeg: s.mozjpeg,
  optimizeForWeb: s.optimizeForWeb,
  stripMetadata: s.stripMetadata,
  chromaSubsampling: s.chromaSubsampling,
  target: premium ? s.target : null,
});

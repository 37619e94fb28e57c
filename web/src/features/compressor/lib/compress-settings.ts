import type { Encoder } from "../../../../../contract/settings.ts";
import type { SavedSettings } from "../data/settings.ts";

/**
 * The JPEG encoder the server is sent: the chosen one for JPEG output; WebP has its own encoder and the
 * server refuses jpegli with it (`ENCODER_FORMAT_ERROR`), so a jpegli kept in the panel goes as mozjpeg.
 */
export const encoderFor = (s: Pick<SavedSettings, "format" | "encoder">): Encoder =>
  s.format === "webp" ? "mozjpeg" : s.encoder;

/** The panel's settings as the server accepts them to remember: the encoder fits the format. */
export const savableSettings = (s: SavedSettings): SavedSettings => ({ ...s, encoder: encoderFor(s) });

/**
 * The panel's settings as an upload or a re-compression sends them (what is on screen is what runs):
 * the encoder fits the format, and a target only on Premium (the server refuses it on the free plan).
 */
export const sendableSettings = (s: SavedSettings, premium: boolean): SavedSettings => ({
  ...savableSettings(s),
  target: premium ? s.target : null,
});

import { type Encoder, fittingEncoder, type FormatChoice } from "../../../contract/formats.ts";
import type { Target } from "../../../contract/settings.ts";

/** What the rule reads of a settings form: its format, its encoder and its target. */
export interface SendableFields {
  format: FormatChoice;
  encoder: Encoder;
  target: Target | null;
}

/**
 * The settings as the server takes them (what is on screen is what runs), shared by the settings panel and
 * the live preview: an encoder that fits the format (other formats have their own encoder and the server
 * refuses jpegli with them, so a jpegli kept in the form goes as the default), and a target only on Premium.
 */
export const sendable = <S extends SendableFields>(settings: S, premium: boolean): S => ({
  ...settings,
  encoder: fittingEncoder(settings.format, settings.encoder),
  target: premium ? settings.target : null,
});

import { type Encoder, fittingEncoder } from "../../../../../contract/formats.ts";
import { sendable } from "../../../lib/sendable-settings.ts";
import type { SavedSettings } from "../data/settings.ts";

/**
 * The encoder the server is sent: the chosen one where the format has it; other formats have their own
 * encoder and the server refuses jpegli with them, so a jpegli kept in the panel goes as the default.
 */
export const encoderFor = (s: Pick<SavedSettings, "format" | "encoder">): Encoder =>
  fittingEncoder(s.format, s.encoder);

/** The panel's settings as the server accepts them to remember: the encoder fits the format. */
export const savableSettings = (s: SavedSettings): SavedSettings => ({ ...s, encoder: encoderFor(s) });

/**
 * The panel's settings as an upload or a re-compression sends them: the shared rule (`sendable`: the
 * encoder fits the format, a target only on Premium), and a web set's widths only on Premium too (the
 * server refuses both on the free plan: a set saved while Premium is not sent once the plan has ended).
 */
export const sendableSettings = (s: SavedSettings, premium: boolean): SavedSettings => ({
  ...sendable(s, premium),
  widths: premium ? s.widths : null,
});

import {
  AUTO_FORMAT,
  candidateFormats,
  FORMATS,
  type FormatSetting,
  settingApplies,
} from "../../../../../contract/formats.ts";
import { searchesEncoders } from "../../../../../contract/settings.ts";
import type { SavedSettings } from "../data/settings.ts";

/** What the settings panel's sections read of the settings: which controls apply, and what the outputs carry. */
export interface SettingsFacts {
  /** format=auto: the smallest of the chosen formats. */
  auto: boolean;
  /** A web set (Premium) makes its own formats and widths, at the target or auto. */
  set: boolean;
  /** A score target on a format with both encoders: the server tries both. */
  searchesBoth: boolean;
  /** What of the metadata the outputs may carry: "all" when JPEG may be written. */
  metadata: "all" | "icc-exif" | "none";
  /** Whether a format-specific control applies to the chosen format, on auto to any it may choose (the manifest). */
  has: (setting: FormatSetting) => boolean;
}

export function settingsFacts(settings: SavedSettings, premium: boolean): SettingsFacts {
  const carried = candidateFormats(settings).map((f) => FORMATS[f].metadata);
  return {
    auto: settings.format === AUTO_FORMAT,
    set: premium && settings.widths !== null,
    searchesBoth: searchesEncoders({ format: settings.format, target: premium ? settings.target : null }),
    metadata: carried.includes("all") ? "all" : carried.includes("icc-exif") ? "icc-exif" : "none",
    has: (setting) => settingApplies(settings, setting),
  };
}

/** What each section of the settings panel is given. */
export interface SettingsSectionProps {
  settings: SavedSettings;
  update: (patch: Partial<SavedSettings>) => void;
  premium: boolean;
  facts: SettingsFacts;
}

import { useState } from "react";
import type { SavedSettings } from "../data/settings.ts";
import { settingsSummary } from "../lib/settings-summary.ts";
import { SettingsPanel } from "./settings-panel.tsx";

/**
 * The settings in one line ("Quality 80 · JPEG · metadata stripped · Change"); Change opens the
 * full panel in place, so the first screen keeps the drop zone and the results together.
 */
export function SettingsSummary(
  { settings, update, premium }: {
    settings: SavedSettings;
    update: (patch: Partial<SavedSettings>) => void;
    premium: boolean;
  },
) {
  const [open, setOpen] = useState(false);
  return (
    <div className="space-y-3">
      <p className="text-sm">
        <span className="text-slate-500 max-sm:sr-only">Settings:</span>{" "}
        <span className="font-medium text-slate-800" data-testid="settings-summary">
          {settingsSummary(settings, premium)}
        </span>
        <span aria-hidden="true" className="mx-1 text-slate-400">·</span>
        <button
          type="button"
          className="font-medium text-brand-700 underline hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
          aria-expanded={open}
          aria-controls={open ? "settings-panel" : undefined}
          onClick={() => setOpen(!open)}
        >
          {open ? "Done" : "Change"}
        </button>
      </p>
      {open && <SettingsPanel id="settings-panel" settings={settings} update={update} premium={premium} />}
    </div>
  );
}

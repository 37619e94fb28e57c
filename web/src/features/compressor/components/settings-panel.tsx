import { TargetFields } from "../../../components/target-fields.tsx";
import { ResizeFields } from "../../../components/resize-fields.tsx";
import type { SavedSettings } from "../data/settings.ts";
import { settingsFacts } from "../lib/settings-facts.ts";
import { BatchFields } from "./batch-fields.tsx";
import { FormatNote } from "./format-note.tsx";
import { OptionToggles, OutputFields, QualityField } from "./output-fields.tsx";
import { WebSetFields } from "./web-set-fields.tsx";

/**
 * Every setting of spec §3 with its default; JPEG-only options appear only for JPEG output, and
 * WebP says what it drops. The concurrency offers only what the plan runs.
 */
export function SettingsPanel(
  { id, settings, update, premium }: {
    id?: string;
    settings: SavedSettings;
    update: (patch: Partial<SavedSettings>) => void;
    premium: boolean;
  },
) {
  const section = { settings, update, premium, facts: settingsFacts(settings, premium) };
  return (
    <section
      id={id}
      aria-labelledby="settings-title"
      className="space-y-5 rounded-lg border border-slate-200 bg-slate-50/50 p-3 sm:p-4"
      data-testid="settings-panel"
    >
      <div>
        <h2 id="settings-title" className="text-base font-semibold">Compression Settings</h2>
        <p className="text-sm text-slate-500">Remembered for your account and used for the next upload.</p>
      </div>
      <div className="space-y-6">
        <QualityField {...section} />
        <OutputFields {...section} />
        <ResizeFields value={settings} onChange={update} />
        <OptionToggles {...section} />
        <FormatNote {...section} />
        <BatchFields {...section} />
        <TargetFields
          target={settings.target}
          premium={premium}
          sizeAllowed={!section.facts.auto}
          onChange={(target) => update({ target })}
        />
        <WebSetFields value={settings} target={settings.target} premium={premium} onChange={update} />
      </div>
    </section>
  );
}

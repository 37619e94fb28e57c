import { type ReactNode, useId } from "react";
import { codecLabel } from "../../../../../contract/codec-labels.ts";
import { appliesTo, FORMATS, type FormatSetting, OUTPUT_FORMATS } from "../../../../../contract/formats.ts";
import {
  CHROMA_SUBSAMPLINGS,
  type CompressSettings,
  type Encoder,
  ENCODERS,
  type OutputFormat,
  QUALITY_RANGE,
} from "../../../../../contract/settings.ts";
import { ResizeFields } from "../../../components/resize-fields.tsx";
import { TargetFields } from "../../../components/target-fields.tsx";

const SELECT =
  "h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600";
const CHROMA_LABELS = { "4:4:4": "4:4:4", "4:2:2": "4:2:2", "4:2:0": "4:2:0" } as const;

/** The preview's settings: the job's, with one output format (it shows one encode). */
export type PreviewSettings = CompressSettings & { format: OutputFormat };

/**
 * The live preview's settings, compactly: quality, format, encoder, chroma, progressive, resize and the
 * Premium target. `effective` is the settings as they are sent (the encoder and target shown are those).
 */
export function PreviewSettingsForm(
  { settings, effective, premium, update }: {
    settings: PreviewSettings;
    effective: PreviewSettings;
    premium: boolean;
    update: (patch: Partial<PreviewSettings>) => void;
  },
) {
  const ids = useId();
  const has = (setting: FormatSetting) => appliesTo(settings.format, setting);
  return (
    <div className="space-y-3">
      <div className="space-y-1">
        <div className="flex items-baseline justify-between">
          <label htmlFor={`${ids}-quality`} className="text-sm font-medium text-slate-700">Quality</label>
          {/* The number alone: the setting's spec words ("60 · Fair") beside the predicted score's word read as one scale. */}
          <span className="text-sm tabular-nums">{settings.quality}</span>
        </div>
        <input
          id={`${ids}-quality`}
          type="range"
          min={QUALITY_RANGE.min}
          max={QUALITY_RANGE.max}
          step={1}
          value={settings.quality}
          disabled={effective.target !== null}
          onChange={(e) => update({ quality: Number(e.target.value) })}
          className="w-full accent-brand-600"
        />
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Labelled id={`${ids}-format`} label="Format">
          <select
            id={`${ids}-format`}
            className={SELECT}
            value={settings.format}
            onChange={(e) => update({ format: e.target.value as OutputFormat })}
          >
            {OUTPUT_FORMATS.map((f) => <option key={f} value={f}>{FORMATS[f].label}</option>)}
          </select>
        </Labelled>
        <Labelled id={`${ids}-encoder`} label="Encoder">
          <select
            id={`${ids}-encoder`}
            className={SELECT}
            value={effective.encoder}
            disabled={!has("encoder")}
            onChange={(e) => update({ encoder: e.target.value as Encoder })}
          >
            {ENCODERS.map((e) => <option key={e} value={e}>{codecLabel(e)}</option>)}
          </select>
        </Labelled>
        <Labelled id={`${ids}-chroma`} label="Chroma">
          <select
            id={`${ids}-chroma`}
            className={SELECT}
            value={settings.chromaSubsampling}
            disabled={!has("chromaSubsampling")}
            onChange={(e) => update({ chromaSubsampling: e.target.value as CompressSettings["chromaSubsampling"] })}
          >
            {CHROMA_SUBSAMPLINGS.map((c) => <option key={c} value={c}>{CHROMA_LABELS[c]}</option>)}
          </select>
        </Labelled>
        <div className="flex items-end gap-2 pb-2">
          <input
            id={`${ids}-progressive`}
            type="checkbox"
            className="h-4 w-4 accent-brand-600"
            checked={settings.progressive}
            disabled={!has("progressive")}
            onChange={(e) => update({ progressive: e.target.checked })}
          />
          <label htmlFor={`${ids}-progressive`} className="text-sm font-medium text-slate-700">Progressive</label>
        </div>
      </div>
      <ResizeFields value={settings} onChange={update} compact />
      <TargetFields
        compact
        name={`${ids}-target`}
        target={effective.target}
        premium={premium}
        onChange={(target) => update({ target })}
      />
    </div>
  );
}

function Labelled({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">{label}</label>
      {children}
    </div>
  );
}

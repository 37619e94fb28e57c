import { qualityLabel } from "../../../../../contract/jobs.ts";
import { codecLabel } from "../../../../../contract/codec-labels.ts";
import { CHROMA_SUBSAMPLINGS, type Encoder, ENCODERS, MODES, QUALITY_RANGE } from "../../../../../contract/settings.ts";
import {
  AUTO_FORMAT,
  choiceLabel,
  FORMAT_CHOICES,
  type FormatChoice,
  FORMATS,
  losslessOf,
} from "../../../../../contract/formats.ts";
import { Field, FIELD_CONTROL } from "../../../components/ui/field.tsx";
import { Toggle } from "../../../components/ui/toggle.tsx";
import type { SavedSettings } from "../data/settings.ts";
import type { SettingsSectionProps } from "../lib/settings-facts.ts";

const MODE_LABELS = { speed: "Speed", balanced: "Balanced", quality: "Quality" } as const;
const CHROMA_HINTS = {
  "4:4:4": "4:4:4 (full colour detail)",
  "4:2:2": "4:2:2 (half horizontal colour)",
  "4:2:0": "4:2:0 (smallest files)",
} as const;
const ENCODER_HINTS: Record<Encoder, string> = {
  mozjpeg: "Mozilla's encoder: the smallest files at low quality settings, and the default.",
  jpegli: "Google's newer encoder: several times faster, and often smaller at high quality.",
};

/** The quality slider, disabled where a target, a web set or the automatic format chooses the quality. */
export function QualityField({ settings, update, premium, facts: { set, auto } }: SettingsSectionProps) {
  return (
    <div className="space-y-2">
      <div className="flex items-baseline justify-between">
        <label htmlFor="setting-quality" className="text-sm font-medium text-slate-700">Quality</label>
        <span className="text-sm tabular-nums" data-testid="quality-value">
          {settings.quality} · {qualityLabel(settings.quality)}
        </span>
      </div>
      <input
        id="setting-quality"
        type="range"
        min={QUALITY_RANGE.min}
        max={QUALITY_RANGE.max}
        step={1}
        value={settings.quality}
        aria-valuetext={`${settings.quality}, ${qualityLabel(settings.quality)}`}
        disabled={set || auto || settings.archive || (premium && settings.target !== null)}
        onChange={(e) => update({ quality: Number(e.target.value) })}
        className="w-full accent-brand-600"
      />
      {premium && settings.target !== null && (
        <p className="text-xs text-slate-500">The target below chooses the quality for each image.</p>
      )}
      {set && settings.target === null && (
        <p className="text-xs text-slate-500">The web set below finds the quality of each file (auto).</p>
      )}
      {!set && auto && (!premium || settings.target === null) && (
        <p className="text-xs text-slate-500">The automatic format finds the quality of each file (auto).</p>
      )}
    </div>
  );
}

/** Output format, encoder, compression mode and (where it applies) chroma subsampling. */
export function OutputFields({ settings, update, facts: { set, has, searchesBoth } }: SettingsSectionProps) {
  const chooseFormat = (format: FormatChoice) => {
    const patch: Partial<SavedSettings> = { format };
    // Archive is JPEG XL's alone.
    if (format !== "jxl") patch.archive = false;
    if (format === AUTO_FORMAT) {
      // format=auto ranks lossy encodes at a score: a size target gives way to auto, JPEG XL leaves its choices.
      if (settings.target?.kind === "size") patch.target = { kind: "auto" };
      const choosable = settings.formats.filter((f) => !losslessOf(f));
      patch.formats = choosable.length > 0 ? choosable : ["avif", "jpeg"];
    }
    update(patch);
  };
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field
        label="Output format"
        htmlFor="setting-format"
        hint={set ? "The web set below makes its own formats and widths" : undefined}
      >
        <select
          id="setting-format"
          className={FIELD_CONTROL}
          value={settings.format}
          onChange={(e) => chooseFormat(e.target.value as FormatChoice)}
        >
          {FORMAT_CHOICES.map((f) => (
            <option key={f} value={f}>{f === AUTO_FORMAT ? "Automatic (smallest file)" : FORMATS[f].label}</option>
          ))}
        </select>
      </Field>
      <Field
        label="Encoder"
        htmlFor="setting-encoder"
        hint={has("encoder")
          ? (
            <>
              <span className="block">{ENCODER_HINTS[settings.encoder]}</span>
              {searchesBoth && (
                <span className="mt-1 block" data-testid="encoder-target-note">
                  With this target the server tries both encoders and keeps the smaller file.
                </span>
              )}
            </>
          )
          : `${choiceLabel(settings.format)} has its own encoder.`}
      >
        <select
          id="setting-encoder"
          aria-describedby="setting-encoder-hint"
          className={`${FIELD_CONTROL} disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500`}
          value={settings.encoder}
          disabled={!has("encoder")}
          onChange={(e) => update({ encoder: e.target.value as Encoder })}
        >
          {ENCODERS.map((e) => <option key={e} value={e} title={ENCODER_HINTS[e]}>{codecLabel(e)}</option>)}
        </select>
      </Field>
      <Field
        label="Compression mode"
        htmlFor="setting-mode"
        hint={has("encoder") && settings.encoder === "jpegli" && !searchesBoth
          ? "Applies to MozJPEG and WebP; jpegli has one speed"
          : "Speed encodes fastest; Quality searches hardest for smaller files"}
      >
        <select
          id="setting-mode"
          className={FIELD_CONTROL}
          value={settings.mode}
          onChange={(e) => update({ mode: e.target.value as SavedSettings["mode"] })}
        >
          {MODES.map((m) => <option key={m} value={m}>{MODE_LABELS[m]}</option>)}
        </select>
      </Field>
      {has("chromaSubsampling") && (
        <Field label="Chroma subsampling" htmlFor="setting-chroma">
          <select
            id="setting-chroma"
            className={FIELD_CONTROL}
            value={settings.chromaSubsampling}
            onChange={(e) => update({ chromaSubsampling: e.target.value as SavedSettings["chromaSubsampling"] })}
          >
            {CHROMA_SUBSAMPLINGS.map((c) => <option key={c} value={c}>{CHROMA_HINTS[c]}</option>)}
          </select>
        </Field>
      )}
    </div>
  );
}

/** The on/off options that apply to the chosen format: progressive, MozJPEG, Huffman tables, metadata. */
export function OptionToggles({ settings, update, facts: { has, searchesBoth, metadata } }: SettingsSectionProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {has("progressive") && (
        <Toggle
          label="Progressive"
          hint="Loads in passes, coarse to sharp"
          checked={settings.progressive}
          onChange={(v) => update({ progressive: v })}
        />
      )}
      {has("mozjpeg") && (
        <Toggle
          label="MozJPEG"
          hint={settings.encoder === "mozjpeg" || searchesBoth
            ? "Trellis quantisation and tuned tables for smaller files"
            : "Applies to the MozJPEG encoder only"}
          checked={settings.mozjpeg}
          disabled={settings.encoder !== "mozjpeg" && !searchesBoth}
          onChange={(v) => update({ mozjpeg: v })}
        />
      )}
      {has("optimizeForWeb") && (
        <Toggle
          label="Optimize for web"
          hint="Optimised Huffman tables"
          checked={settings.optimizeForWeb}
          onChange={(v) => update({ optimizeForWeb: v })}
        />
      )}
      {metadata !== "none" && (
        <Toggle
          label="Strip metadata"
          hint={metadata === "all"
            ? "Removes EXIF (incl. GPS), XMP, IPTC and comments; keeps the colour profile"
            : "Removes EXIF (incl. GPS); keeps the colour profile"}
          checked={settings.stripMetadata}
          onChange={(v) => update({ stripMetadata: v })}
        />
      )}
    </div>
  );
}

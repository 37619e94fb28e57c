import { type ReactNode, useId } from "react";
import { Link } from "wouter";
import { qualityLabel } from "../../../../../contract/jobs.ts";
import { CONCURRENCY_CHOICES, PLANS } from "../../../../../contract/plans.ts";
import { paths } from "../../../../../contract/routes.ts";
import { scoreWord } from "../../../../../contract/score-words.ts";
import { codecLabel } from "../../../../../contract/codec-labels.ts";
import {
  BATCH_PRIORITIES,
  CHROMA_SUBSAMPLINGS,
  type Encoder,
  ENCODERS,
  MODES,
  QUALITY_RANGE,
  searchesEncoders,
  type Target,
  TARGET_KB_RANGE,
  TARGET_SCORE_RANGE,
} from "../../../../../contract/settings.ts";
import {
  AUTO_FORMAT,
  candidateFormats,
  choiceLabel,
  FORMAT_CHOICES,
  type FormatChoice,
  FORMATS,
  type FormatSetting,
  settingApplies,
} from "../../../../../contract/formats.ts";
import { FormatChecks } from "./format-checks.tsx";
import type { SavedSettings } from "../data/settings.ts";
import { PremiumFieldset } from "./premium-fieldset.tsx";
import { ResizeFields } from "../../../components/resize-fields.tsx";
import { WebSetFields } from "./web-set-fields.tsx";

/** A typed number into its range (an empty or non-numeric field reads as the minimum). */
const clamp = (n: number, r: { min: number; max: number }) => Math.max(r.min, Math.min(r.max, n || r.min));

const MODE_LABELS = { speed: "Speed", balanced: "Balanced", quality: "Quality" } as const;
const PRIORITY_LABELS = { low: "Low", normal: "Normal", high: "High" } as const;
const CHROMA_HINTS = {
  "4:4:4": "4:4:4 (full colour detail)",
  "4:2:2": "4:2:2 (half horizontal colour)",
  "4:2:0": "4:2:0 (smallest files)",
} as const;
const ENCODER_HINTS: Record<Encoder, string> = {
  mozjpeg: "Mozilla's encoder: the smallest files at low quality settings, and the default.",
  jpegli: "Google's newer encoder: several times faster, and often smaller at high quality.",
};
/** What the free plan runs, whatever the saved setting says (the server fixes it too). */
const FREE_CONCURRENCY = PLANS.free.fixedConcurrency ?? 2;
const SELECT =
  "h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus-visible:outline-2 focus-visible:outline-brand-600";

function Field(
  { label, htmlFor, hint, children }: { label: string; htmlFor: string; hint?: ReactNode; children: ReactNode },
) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={htmlFor} className="text-sm font-medium text-slate-700">{label}</label>
      {children}
      {hint && <p id={`${htmlFor}-hint`} className="text-xs text-slate-500">{hint}</p>}
    </div>
  );
}

function Toggle(
  { label, hint, checked, disabled, onChange }: {
    label: string;
    hint: string;
    checked: boolean;
    disabled?: boolean;
    onChange: (v: boolean) => void;
  },
) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 h-4 w-4 accent-brand-600"
        checked={checked}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.checked)}
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-700">{label}</label>
        <p id={`${id}-hint`} className="text-xs text-slate-500">{hint}</p>
      </div>
    </div>
  );
}

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
  const auto = settings.format === AUTO_FORMAT;
  /** Whether a format-specific control applies to the chosen format, on auto to any it may choose (the manifest). */
  const has = (setting: FormatSetting) => settingApplies(settings, setting);
  const searchesBoth = searchesEncoders({ format: settings.format, target: premium ? settings.target : null });
  /** What of the metadata the outputs may carry: "all" when JPEG may be written. */
  const carried = candidateFormats(settings).map((f) => FORMATS[f].metadata);
  const metadata = carried.includes("all") ? "all" : carried.includes("icc-exif") ? "icc-exif" : "none";
  /** A web set (Premium) makes its own formats and widths, at the target or auto. */
  const set = premium && settings.widths !== null;
  const formatsId = useId();
  const chooseFormat = (format: FormatChoice) =>
    // format=auto ranks formats at a score: a size target gives way to auto.
    update(
      format === AUTO_FORMAT && settings.target?.kind === "size" ? { format, target: { kind: "auto" } } : { format },
    );
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
            disabled={set || auto || (premium && settings.target !== null)}
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

        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Output format"
            htmlFor="setting-format"
            hint={set ? "The web set below makes its own formats and widths" : undefined}
          >
            <select
              id="setting-format"
              className={SELECT}
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
              className={`${SELECT} disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500`}
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
              className={SELECT}
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
                className={SELECT}
                value={settings.chromaSubsampling}
                onChange={(e) => update({ chromaSubsampling: e.target.value as SavedSettings["chromaSubsampling"] })}
              >
                {CHROMA_SUBSAMPLINGS.map((c) => <option key={c} value={c}>{CHROMA_HINTS[c]}</option>)}
              </select>
            </Field>
          )}
        </div>

        <ResizeFields value={settings} onChange={update} />

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
        {auto && !set && (
          <div className="space-y-2 rounded-md bg-slate-100 p-2" data-testid="auto-format">
            <FormatChecks
              id={formatsId}
              label="Formats to choose from"
              formats={settings.formats}
              onChange={(formats) => update({ formats })}
            />
            <p role="note" className="text-sm text-slate-700" data-testid="format-note">
              Each photo gets the smallest of these formats that reaches {premium && settings.target?.kind === "quality"
                ? `your target score (${settings.target.score})`
                : "SSIMULACRA 2 ≥ 80 (auto)"}; its card says which won and by how much. AVIF and WebP carry less
              metadata than JPEG (WebP none).
            </p>
          </div>
        )}
        {!auto && metadata === "icc-exif" && (
          <p role="note" className="rounded-md bg-slate-100 p-2 text-sm text-slate-700" data-testid="format-note">
            {choiceLabel(settings.format)}{" "}
            output carries the colour profile and, unless stripped, EXIF (orientation applied to the pixels); XMP, IPTC
            and comments are dropped. The JPEG-only options (progressive, MozJPEG, Huffman tables) do not apply.
          </p>
        )}
        {!auto && metadata === "none" && (
          <p role="note" className="rounded-md bg-amber-50 p-2 text-sm text-amber-900" data-testid="format-note">
            {choiceLabel(settings.format)}{" "}
            output drops all metadata: EXIF (including GPS and the camera details), XMP, IPTC, comments and the ICC
            colour profile. The JPEG-only options (progressive, MozJPEG, Huffman tables) do not apply.
          </p>
        )}

        <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold">Batch processing</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Concurrent jobs"
              htmlFor="setting-concurrency"
              hint={premium
                ? "How many of this batch's images are compressed at the same time"
                : `The free plan runs ${FREE_CONCURRENCY} images at a time; Premium chooses up to ${
                  CONCURRENCY_CHOICES.at(-1)
                }`}
            >
              <select
                id="setting-concurrency"
                className={SELECT}
                value={premium ? settings.maxConcurrent : FREE_CONCURRENCY}
                disabled={!premium}
                onChange={(e) => update({ maxConcurrent: Number(e.target.value) })}
              >
                {(premium ? CONCURRENCY_CHOICES : [FREE_CONCURRENCY]).map((n) => <option key={n} value={n}>{n}
                </option>)}
              </select>
            </Field>
            <Field label="Priority" htmlFor="setting-priority">
              <select
                id="setting-priority"
                className={SELECT}
                value={settings.priority}
                onChange={(e) => update({ priority: e.target.value as SavedSettings["priority"] })}
              >
                {BATCH_PRIORITIES.map((p) => <option key={p} value={p}>{PRIORITY_LABELS[p]}</option>)}
              </select>
            </Field>
          </div>
          <Toggle
            label="Pause on error"
            hint="Pause the batch when an image fails"
            checked={settings.pauseOnError}
            onChange={(v) => update({ pauseOnError: v })}
          />
        </fieldset>

        <TargetControls
          target={settings.target}
          premium={premium}
          sizeAllowed={!auto}
          onChange={(target) => update({ target })}
        />

        <WebSetFields value={settings} target={settings.target} premium={premium} onChange={update} />
      </div>
    </section>
  );
}

type TargetKind = "none" | Target["kind"];

/** Premium "advanced algorithms": let the server search the quality for a size or a score. */
function TargetControls(
  { target, premium, sizeAllowed, onChange }: {
    target: Target | null;
    premium: boolean;
    /** Not with format=auto, which ranks formats at a score. */
    sizeAllowed: boolean;
    onChange: (t: Target | null) => void;
  },
) {
  const kind: TargetKind = target?.kind ?? "none";
  const choose = (k: TargetKind) => {
    if (k === "none") onChange(null);
    else if (k === "size") onChange({ kind: "size", kb: 200 });
    else if (k === "quality") onChange({ kind: "quality", score: 90 });
    else onChange({ kind: "auto" });
  };
  return (
    <PremiumFieldset legend="Target" premium={premium} testId="target-controls">
      <div role="radiogroup" aria-label="Target" className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
        {([["none", "Use the quality setting"], ["size", "Target size"], ["quality", "Target quality"], [
          "auto",
          "Auto",
        ]] as const)
          .map(([k, label]) => (
            <label key={k} className="flex items-center gap-2">
              <input
                type="radio"
                name="target-kind"
                value={k}
                checked={kind === k}
                disabled={k === "size" && !sizeAllowed}
                onChange={() => choose(k)}
                className="accent-brand-600"
              />
              {label}
            </label>
          ))}
      </div>
      {target?.kind === "size" && (
        <Field label="Target size (KB)" htmlFor="setting-target-kb" hint="The smallest file at or under this size">
          <input
            id="setting-target-kb"
            type="number"
            min={TARGET_KB_RANGE.min}
            max={TARGET_KB_RANGE.max}
            step={1}
            value={target.kb}
            onChange={(e) =>
              onChange({ kind: "size", kb: clamp(Math.round(Number(e.target.value)), TARGET_KB_RANGE) })}
            className={SELECT}
          />
        </Field>
      )}
      {target?.kind === "quality" && (
        <Field
          label={`Target quality score (${TARGET_SCORE_RANGE.min}-${TARGET_SCORE_RANGE.max})`}
          htmlFor="setting-target-score"
          hint={`The smallest file that keeps this measured score (${target.score}: ${scoreWord(target.score).word})`}
        >
          <input
            id="setting-target-score"
            type="number"
            min={TARGET_SCORE_RANGE.min}
            max={TARGET_SCORE_RANGE.max}
            step={1}
            value={target.score}
            onChange={(e) => onChange({ kind: "quality", score: clamp(Number(e.target.value), TARGET_SCORE_RANGE) })}
            className={SELECT}
          />
        </Field>
      )}
      {target?.kind === "auto" && (
        <p className="text-xs text-slate-500">Finds the smallest file that still looks the same as the original.</p>
      )}
      {!premium && (
        <p className="text-sm text-slate-600">
          Target size, target quality and auto are Premium features.{" "}
          <Link href={paths.subscribe} className="font-medium text-brand-700 underline">Upgrade to Premium</Link>
        </p>
      )}
    </PremiumFieldset>
  );
}

import { FORMATS, OUTPUT_FORMATS, type OutputFormat } from "../../../../../contract/formats.ts";

export function Check(
  { label, checked, disabled, onChange }: {
    label: string;
    checked: boolean;
    disabled?: boolean;
    onChange: (checked: boolean) => void;
  },
) {
  return (
    <label className="flex items-center gap-2 text-sm tabular-nums has-[:disabled]:text-slate-500">
      <input
        type="checkbox"
        className="h-4 w-4 accent-brand-600"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      {label}
    </label>
  );
}

/**
 * A checkbox per output format (the manifest's), at least one left checked: a web set's formats, or
 * those format=auto may choose between. Both are the one `formats` setting.
 */
export function FormatChecks(
  { id, label, formats, onChange, choices = OUTPUT_FORMATS }: {
    id: string;
    label: string;
    formats: readonly OutputFormat[];
    onChange: (formats: OutputFormat[]) => void;
    /** The formats offered (default every one of the manifest). */
    choices?: readonly OutputFormat[];
  },
) {
  return (
    <div role="group" aria-labelledby={id} className="space-y-1.5">
      <p id={id} className="text-xs text-slate-600">{label}</p>
      <div className="flex flex-wrap gap-x-4 gap-y-1.5">
        {choices.map((f) => {
          const checked = formats.includes(f);
          return (
            <Check
              key={f}
              label={FORMATS[f].label}
              checked={checked}
              disabled={checked && formats.length === 1}
              onChange={(c) => onChange(c ? [...formats, f] : formats.filter((x) => x !== f))}
            />
          );
        })}
      </div>
    </div>
  );
}

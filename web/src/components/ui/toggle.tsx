import { useId } from "react";

/** A checkbox with its label and a hint under it (the hint describes the box for assistive technology). */
export function Toggle(
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

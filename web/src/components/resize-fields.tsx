import { useId } from "react";
import { type Fit, FITS, RESIZE_RANGE } from "../../../contract/settings.ts";

const INPUT =
  "h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus-visible:outline-2 focus-visible:outline-brand-600";
const FIT_LABELS: Record<Fit, string> = { inside: "Fit inside the box", cover: "Fill the box (crop)" };

export interface ResizeValue {
  maxWidth: number | null;
  maxHeight: number | null;
  fit: Fit;
}

/** A side as typed: empty is "no limit"; anything else is a whole number within the range. */
const sideFrom = (text: string): number | null => {
  if (text.trim() === "") return null;
  const n = Math.round(Number(text));
  return Number.isFinite(n) ? Math.max(RESIZE_RANGE.min, Math.min(RESIZE_RANGE.max, n)) : null;
};

/**
 * Resize (issue 30, item 2): the largest width and height, each optional, and how a box with both is
 * filled. Shared by the settings panel and the live preview; the server applies it before encoding.
 */
export function ResizeFields(
  { value, onChange, compact = false }: {
    value: ResizeValue;
    onChange: (patch: Partial<ResizeValue>) => void;
    compact?: boolean;
  },
) {
  const id = useId();
  const both = value.maxWidth !== null && value.maxHeight !== null;
  return (
    <fieldset className="space-y-2" data-testid="resize-fields">
      <legend className="text-sm font-medium text-slate-700">Resize</legend>
      <div className={compact ? "grid grid-cols-3 gap-2" : "grid gap-3 sm:grid-cols-3"}>
        {(["maxWidth", "maxHeight"] as const).map((side) => (
          <div key={side} className="space-y-1">
            <label htmlFor={`${id}-${side}`} className="text-xs text-slate-600">
              {side === "maxWidth" ? "Max width (px)" : "Max height (px)"}
            </label>
            <input
              id={`${id}-${side}`}
              type="number"
              inputMode="numeric"
              min={RESIZE_RANGE.min}
              max={RESIZE_RANGE.max}
              step={1}
              placeholder="Original"
              value={value[side] ?? ""}
              onChange={(e) => onChange({ [side]: sideFrom(e.target.value) })}
              className={INPUT}
            />
          </div>
        ))}
        <div className="space-y-1">
          <label htmlFor={`${id}-fit`} className="text-xs text-slate-600">Fit</label>
          <select
            id={`${id}-fit`}
            className={INPUT}
            value={value.fit}
            disabled={!both}
            onChange={(e) => onChange({ fit: e.target.value as Fit })}
          >
            {FITS.map((f) => <option key={f} value={f}>{FIT_LABELS[f]}</option>)}
          </select>
        </div>
      </div>
      <p className="text-xs text-slate-500">
        Never enlarged. A resized photo is always returned, and its score is measured against the original resized the
        same way.
      </p>
    </fieldset>
  );
}

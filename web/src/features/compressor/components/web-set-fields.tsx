import { useId } from "react";
import { PremiumFieldset } from "../../../components/premium-fieldset.tsx";
import { Link } from "wouter";
import type { OutputFormat } from "../../../../../contract/formats.ts";
import { Check, FormatChecks } from "./format-checks.tsx";
import { paths } from "../../../../../contract/routes.ts";
import type { Target } from "../../../../../contract/settings.ts";
import { DEFAULT_SET_WIDTHS, MAX_SET_WIDTHS } from "../../../../../contract/web-sets.ts";

export interface WebSetValue {
  /** null: one output per photo, not a set. */
  widths: number[] | null;
  formats: OutputFormat[];
}

const byNumber = (a: number, b: number) => a - b;

/** What every file of the set is held to: the target's words (a set without a target runs auto, ≥ 80). */
function targetText(target: Target | null): string {
  if (target?.kind === "size") return `at most ${target.kb} KB each`;
  if (target?.kind === "quality") return `at SSIMULACRA 2 ≥ ${target.score}`;
  return "at SSIMULACRA 2 ≥ 80";
}

/**
 * Web sets (issue 30, item 5; ADR 031), Premium: one upload makes each photo at several widths in several
 * formats, with its `<picture>` markup. Off is `widths: null`; on starts with the four default widths.
 * Widths saved elsewhere (the API, the CLI) show as boxes too. At least one width and one format stay
 * checked, and no more widths than a set takes.
 */
export function WebSetFields(
  { value, target, premium, onChange }: {
    value: WebSetValue;
    target: Target | null;
    premium: boolean;
    onChange: (patch: Partial<WebSetValue>) => void;
  },
) {
  const id = useId();
  const on = premium && value.widths !== null;
  const widths = value.widths ?? [];
  const widthChoices = [...new Set([...DEFAULT_SET_WIDTHS, ...widths])].sort(byNumber);
  const full = widths.length >= MAX_SET_WIDTHS;
  const setWidth = (w: number, checked: boolean) =>
    onChange({ widths: checked ? [...widths, w].sort(byNumber) : widths.filter((x) => x !== w) });
  return (
    <PremiumFieldset legend="Web set" premium={premium} testId="web-set-fields">
      <div className="flex items-start gap-3">
        <input
          id={`${id}-on`}
          type="checkbox"
          className="mt-0.5 h-4 w-4 accent-brand-600"
          checked={on}
          aria-describedby={`${id}-hint`}
          onChange={(e) => onChange({ widths: e.target.checked ? [...DEFAULT_SET_WIDTHS] : null })}
        />
        <div>
          <label htmlFor={`${id}-on`} className="text-sm font-medium text-slate-700">Make a responsive set</label>
          <p id={`${id}-hint`} className="text-xs text-slate-500" data-testid="web-set-hint">
            One upload → each width × format{" "}
            {targetText(premium ? target : null)}, with the &lt;picture&gt; markup; counts as one compression
          </p>
        </div>
      </div>
      {on && (
        <div className="grid gap-3 sm:grid-cols-2">
          <div role="group" aria-labelledby={`${id}-widths`} className="space-y-1.5">
            <p id={`${id}-widths`} className="text-xs text-slate-600">Widths (px; none wider than the photo)</p>
            <div className="flex flex-wrap gap-x-4 gap-y-1.5">
              {widthChoices.map((w) => {
                const checked = widths.includes(w);
                return (
                  <Check
                    key={w}
                    label={String(w)}
                    checked={checked}
                    disabled={checked ? widths.length === 1 : full}
                    onChange={(c) => setWidth(w, c)}
                  />
                );
              })}
            </div>
          </div>
          <FormatChecks
            id={`${id}-formats`}
            label="Formats"
            formats={value.formats}
            onChange={(formats) => onChange({ formats })}
          />
        </div>
      )}
      {!premium && (
        <p className="text-sm text-slate-600">
          Web sets are a Premium feature.{" "}
          <Link href={paths.subscribe} className="font-medium text-brand-700 underline">Upgrade to Premium</Link>
        </p>
      )}
    </PremiumFieldset>
  );
}

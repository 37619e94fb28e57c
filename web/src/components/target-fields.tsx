import type { InputHTMLAttributes } from "react";
import { Link } from "wouter";
import { paths } from "../../../contract/routes.ts";
import { scoreWord } from "../../../contract/score-words.ts";
import { type Target, TARGET_KB_RANGE, TARGET_SCORE_RANGE } from "../../../contract/settings.ts";
import { cn } from "../lib/cn.ts";
import { PremiumFieldset } from "./premium-fieldset.tsx";
import { Field, FIELD_CONTROL } from "./ui/field.tsx";

export type TargetKind = "none" | Target["kind"];

/** Each choice with its label in the settings panel and in the compact form (the live preview). */
const CHOICES = [
  ["none", "Use the quality setting", "Quality setting"],
  ["size", "Target size", "Size"],
  ["quality", "Target quality", "Score"],
  ["auto", "Auto", "Auto"],
] as const;

/** The target a choice starts at: 200 KB, a score of 90, or auto; none is the quality setting. */
export function targetOf(kind: TargetKind): Target | null {
  if (kind === "none") return null;
  if (kind === "size") return { kind: "size", kb: 200 };
  if (kind === "quality") return { kind: "quality", score: 90 };
  return { kind: "auto" };
}

/** A typed number into its range (an empty or non-numeric field reads as the minimum). */
const clamp = (n: number, r: { min: number; max: number }) => Math.max(r.min, Math.min(r.max, n || r.min));
const sizeTarget = (typed: string): Target => ({ kind: "size", kb: clamp(Math.round(Number(typed)), TARGET_KB_RANGE) });
const scoreTarget = (typed: string): Target => ({ kind: "quality", score: clamp(Number(typed), TARGET_SCORE_RANGE) });

/** The live preview's smaller field (the settings panel's is `FIELD_CONTROL`). */
const COMPACT_INPUT =
  "h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600";

/**
 * The Premium targets (let the server search the quality for a size, a score or auto), one component for
 * the settings panel and, `compact`, the live preview: the same four choices, defaults and clamps. Disabled
 * on the free plan. `sizeAllowed` is false with format=auto, which ranks formats at a score.
 */
export function TargetFields(
  { target, premium, onChange, name = "target-kind", sizeAllowed = true, compact = false }: {
    target: Target | null;
    premium: boolean;
    onChange: (t: Target | null) => void;
    /** The radio group's name (one per form on the page). */
    name?: string;
    sizeAllowed?: boolean;
    compact?: boolean;
  },
) {
  const kind: TargetKind = target?.kind ?? "none";
  const radios = CHOICES.map(([k, label, short]) => (
    <label key={k} className={cn("flex items-center", compact ? "gap-1.5" : "gap-2")}>
      <input
        type="radio"
        name={name}
        value={compact ? undefined : k}
        checked={kind === k}
        disabled={k === "size" && !sizeAllowed}
        onChange={() =>
          onChange(targetOf(k))}
        className="accent-brand-600"
      />
      {compact ? short : label}
    </label>
  ));

  // A size or a score: the number it takes, clamped into its range as typed.
  const number = target?.kind === "size"
    ? { range: TARGET_KB_RANGE, value: target.kb, typed: sizeTarget }
    : target?.kind === "quality"
    ? { range: TARGET_SCORE_RANGE, value: target.score, typed: scoreTarget }
    : null;
  const numberInput = (props: InputHTMLAttributes<HTMLInputElement>) =>
    number && (
      <input
        type="number"
        min={number.range.min}
        max={number.range.max}
        value={number.value}
        onChange={(e) => onChange(number.typed(e.target.value))}
        {...props}
      />
    );

  if (compact) {
    return (
      <fieldset disabled={!premium} className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        <legend className="mb-1 text-sm font-medium text-slate-700">
          Target {!premium && <span className="ml-1 rounded bg-amber-100 px-1.5 text-xs text-amber-800">Premium</span>}
        </legend>
        {radios}
        {target?.kind === "size" &&
          numberInput({ "aria-label": "Target size (KB)", className: cn(COMPACT_INPUT, "w-28") })}
        {target?.kind === "quality" &&
          numberInput({ "aria-label": "Target quality score", className: cn(COMPACT_INPUT, "w-24") })}
      </fieldset>
    );
  }

  return (
    <PremiumFieldset legend="Target" premium={premium} testId="target-controls">
      <div role="radiogroup" aria-label="Target" className="flex flex-wrap gap-x-5 gap-y-2 text-sm">{radios}</div>
      {target?.kind === "size" && (
        <Field label="Target size (KB)" htmlFor="setting-target-kb" hint="The smallest file at or under this size">
          {numberInput({ id: "setting-target-kb", step: 1, className: FIELD_CONTROL })}
        </Field>
      )}
      {target?.kind === "quality" && (
        <Field
          label={`Target quality score (${TARGET_SCORE_RANGE.min}-${TARGET_SCORE_RANGE.max})`}
          htmlFor="setting-target-score"
          hint={`The smallest file that keeps this measured score (${target.score}: ${scoreWord(target.score).word})`}
        >
          {numberInput({ id: "setting-target-score", step: 1, className: FIELD_CONTROL })}
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

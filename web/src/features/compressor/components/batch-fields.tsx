import { CONCURRENCY_CHOICES, PLANS } from "../../../../../contract/plans.ts";
import { BATCH_PRIORITIES } from "../../../../../contract/settings.ts";
import { Field, FIELD_CONTROL } from "../../../components/ui/field.tsx";
import { Toggle } from "../../../components/ui/toggle.tsx";
import type { SavedSettings } from "../data/settings.ts";
import type { SettingsSectionProps } from "../lib/settings-facts.ts";

const PRIORITY_LABELS = { low: "Low", normal: "Normal", high: "High" } as const;
/** What the free plan runs, whatever the saved setting says (the server fixes it too). */
const FREE_CONCURRENCY = PLANS.free.fixedConcurrency ?? 2;

/** How a batch runs: concurrent jobs (only what the plan runs is offered), priority, pause on error. */
export function BatchFields({ settings, update, premium }: Omit<SettingsSectionProps, "facts">) {
  return (
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
            className={FIELD_CONTROL}
            value={premium ? settings.maxConcurrent : FREE_CONCURRENCY}
            disabled={!premium}
            onChange={(e) => update({ maxConcurrent: Number(e.target.value) })}
          >
            {(premium ? CONCURRENCY_CHOICES : [FREE_CONCURRENCY]).map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </Field>
        <Field label="Priority" htmlFor="setting-priority">
          <select
            id="setting-priority"
            className={FIELD_CONTROL}
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
  );
}

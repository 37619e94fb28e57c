import type { ReactNode } from "react";

/**
 * A group of Premium settings: disabled on the free plan, its legend marked "Premium" there. Shared by the
 * target controls and the web set section, so both read and behave the same.
 */
export function PremiumFieldset(
  { legend, premium, testId, children }: { legend: string; premium: boolean; testId: string; children: ReactNode },
) {
  return (
    <fieldset
      disabled={!premium}
      className="space-y-3 rounded-lg border border-slate-200 p-4 disabled:bg-slate-50"
      data-testid={testId}
    >
      <legend className="px-1 text-sm font-semibold">
        {legend}{" "}
        {!premium && <span className="ml-1 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-800">Premium</span>}
      </legend>
      {children}
    </fieldset>
  );
}

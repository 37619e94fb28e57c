import type { ReactNode } from "react";

/** A select or number input of a settings form. */
export const FIELD_CONTROL =
  "h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus-visible:outline-2 focus-visible:outline-brand-600";

/** A labelled control of a settings form, with its hint below (`{htmlFor}-hint`, for `aria-describedby`). */
export function Field(
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

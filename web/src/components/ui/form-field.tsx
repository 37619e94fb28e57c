import type { InputHTMLAttributes } from "react";
import { Input } from "./input.tsx";
import { Label } from "./label.tsx";

export interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  /** A rule shown under the input (e.g. the password length). */
  hint?: string;
  /** A validation message; marks the input invalid and is announced with it. */
  error?: string;
}

/** A labelled input with its hint and error wired to it for assistive technology. */
export function FormField({ id, label, hint, error, ...input }: FormFieldProps) {
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint && <p id={`${id}-hint`} className="text-xs text-slate-500">{hint}</p>}
      {error && <p id={`${id}-error`} className="text-sm text-red-700">{error}</p>}
    </div>
  );
}

import { CopyButton } from "./copy-button.tsx";

/**
 * A shell example or an answer under its caption, scrolled sideways rather than wrapped (the
 * scroller takes focus, for keyboards); commands get a Copy button.
 */
export function CodeBlock({ code, caption, copy = false }: { code: string; caption: string; copy?: boolean }) {
  return (
    <figure className="mt-4">
      <div className="mb-1.5 flex min-h-8 items-end justify-between gap-3">
        <figcaption className="text-sm font-medium text-slate-600">{caption}</figcaption>
        {copy && <CopyButton text={code} aria-label={`Copy: ${caption}`} failHint="Select the example and copy it." />}
      </div>
      <pre
        tabIndex={0}
        className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm leading-relaxed text-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}

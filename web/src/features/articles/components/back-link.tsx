import type { MouseEvent } from "react";

/**
 * "Back" (spec §2): goes back in browser history when the visitor came from this site,
 * otherwise (new tab, search result, no JavaScript) it is a plain link to `fallback`.
 */
export function BackLink({ fallback }: { fallback: string }) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    const cameFromHere = document.referrer.startsWith(location.origin) && history.length > 1;
    if (!cameFromHere || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    history.back();
  };
  return (
    <a
      href={fallback}
      onClick={onClick}
      className="inline-flex items-center gap-1 text-sm font-medium text-slate-700 hover:text-slate-950"
    >
      <span aria-hidden="true">←</span> Back
    </a>
  );
}

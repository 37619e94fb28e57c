/** The ☰/✕ button that opens a header's menu on small screens. */
export function MenuToggle({ open, controls, onToggle }: { open: boolean; controls: string; onToggle: () => void }) {
  return (
    <button
      type="button"
      className="rounded-md p-2 text-slate-700 md:hidden"
      aria-label={open ? "Close menu" : "Open menu"}
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      <span aria-hidden="true" className="block h-6 w-6 text-xl leading-6">{open ? "✕" : "☰"}</span>
    </button>
  );
}

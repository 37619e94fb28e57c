/** What happens to an upload, in one sentence (it matches the server: DESIGN §4 and §5). */
export function InfoBanner() {
  return (
    <section
      aria-label="About the compression"
      className="rounded-xl border border-brand-100 bg-brand-50 px-3 py-2 text-xs text-slate-700 sm:px-4 sm:py-3 sm:text-sm"
    >
      <h1 className="text-base font-bold text-slate-900 sm:text-xl">Compress JPEG images</h1>
      <p>
        MozJPEG or jpegli re-encodes your photos in server memory, measures each result against the original, and
        deletes both an hour later.
      </p>
    </section>
  );
}

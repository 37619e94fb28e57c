/** What happens to an upload, stated plainly (it matches the server: DESIGN §4 and §5). */
export function InfoBanner() {
  return (
    <section
      aria-label="About the compression"
      className="rounded-xl border border-brand-100 bg-brand-50 p-4 text-sm text-slate-700 sm:p-5"
    >
      <h1 className="text-xl font-bold text-slate-900 sm:text-2xl">Compress JPEG images</h1>
      <p className="mt-1">
        Images are re-encoded on our server with <strong>MozJPEG</strong>{" "}
        (trellis quantisation, optimised Huffman tables) compiled to WebAssembly. Each result's quality is measured
        against the original (SSIM), and if the output would not be smaller, you get your original back, marked "already
        optimised".
      </p>
      <p className="mt-1 text-slate-600">
        Files are processed in server memory only, never written to disk, and deleted from memory an hour after
        compression or when you delete the job.
      </p>
    </section>
  );
}

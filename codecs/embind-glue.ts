/**
 * A package's emscripten glue with embind's byte loop replaced by one bulk copy. embind hands a typed array to
 * a C++ `std::string` parameter (MozJPEG's encoder takes the RGBA that way, its decoder the file) one element
 * per JavaScript iteration: 52-55 ms for a 20 MP photo's 80 MB once optimised and 310 ms on a fresh worker's
 * first call, against 5 ms for `HEAPU8.set` (ADR 050). The copy is the same bytes either way: `set` converts
 * each element as the loop's assignment does.
 *
 * Only under Deno: the patched text is imported from a data: URL, which the browser's CSP forbids, so the live
 * preview keeps the packaged glue. A glue without exactly one such loop (another jsquash release) is used as
 * packaged; tests/codecs/embind-glue.test.ts fails first.
 */

const BYTE_LOOP = "for(var i=0;i<length;++i){HEAPU8[ptr+i]=value[i]}";
const BULK_COPY = "HEAPU8.set(value,ptr)";

/** The glue's text with its one byte loop replaced, or null when it has none or more than one. */
export function withBulkCopy(source: string): string | null {
  const parts = source.split(BYTE_LOOP);
  return parts.length === 2 ? parts.join(BULK_COPY) : null;
}

const imported = new Map<string, Promise<unknown>>();

/**
 * The default export of the glue at `specifier` (a bare specifier of an installed package) with `withBulkCopy`
 * applied under Deno, else `packaged` (that same glue, imported statically by the caller).
 */
export function bulkCopyGlue<F>(specifier: string, packaged: F): Promise<F> {
  if (typeof Deno === "undefined") return Promise.resolve(packaged);
  let glue = imported.get(specifier);
  if (!glue) {
    glue = Deno.readTextFile(new URL(import.meta.resolve(specifier))).then(async (text) => {
      const source = withBulkCopy(text);
      if (source === null) return packaged;
      const module = await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);
      return module.default;
    });
    imported.set(specifier, glue);
  }
  return glue as Promise<F>;
}

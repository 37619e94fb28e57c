/**
 * RFC 6266: an ASCII fallback (quotes, backslashes and control characters
 * replaced) plus the exact name as UTF-8 in `filename*`.
 */
export function contentDisposition(name: string, type: "attachment" | "inline" = "attachment"): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Saves `blob` as a download named `name` (an object URL clicked, then revoked). */
export function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  // Give the browser time to start the save before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** The file name of an RFC 6266 `Content-Disposition`: `filename*` (UTF-8) first, then `filename`. */
export function dispositionName(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch { /* fall back to the plain name */ }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(header);
  return plain ? (plain[1] ?? plain[2]!.trim()) : null;
}

import { Zip, ZipPassThrough } from "fflate";

export interface ZipEntry {
  name: string;
  data: Blob;
}

/** Makes names unique the way file managers do: "a.jpg", "a (2).jpg". */
export function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const key = name.toLowerCase();
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n === 1) return name;
    const dot = name.lastIndexOf(".");
    return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
  });
}

/**
 * A ZIP streamed entry by entry as the client reads (one file's bytes in memory
 * at a time); JPEG and WebP are stored, not deflated again.
 */
export function zipStream(entries: ZipEntry[]): ReadableStream<Uint8Array> {
  let zip: Zip;
  let next = 0;
  return new ReadableStream({
    start(controller) {
      zip = new Zip((err, chunk, final) => {
        if (err) return controller.error(err);
        controller.enqueue(chunk);
        if (final) controller.close();
      });
    },
    async pull() {
      const entry = entries[next++];
      if (!entry) return zip.end();
      const file = new ZipPassThrough(entry.name);
      zip.add(file);
      file.push(new Uint8Array(await entry.data.arrayBuffer()), true);
    },
  });
}

import { Zip, ZipPassThrough } from "fflate";

export interface ZipEntry {
  name: string;
  /** Opens the entry's bytes when the ZIP reaches it; null (its bytes went meanwhile) leaves it out. */
  open(): Promise<ReadableStream<Uint8Array> | null>;
}

/**
 * A ZIP streamed entry by entry as the client reads, each entry streamed from the byte store
 * chunk by chunk; JPEG and WebP are stored, not deflated again.
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
      for (;;) {
        const entry = entries[next++];
        if (!entry) return zip.end();
        const body = await entry.open();
        if (!body) continue;
        const file = new ZipPassThrough(entry.name);
        zip.add(file);
        for await (const chunk of body) file.push(chunk);
        file.push(new Uint8Array(0), true);
        return;
      }
    },
  });
}

import { contentDisposition } from "../services/compression/content-disposition.ts";
import type { FileDownload } from "../services/compression/compression-service.ts";
import { uniqueNames, zipStream } from "../services/compression/zip-stream.ts";

/** Completed results streamed as one ZIP, entries named uniquely, under `fileName`. */
export function zipResponse(fileName: string, files: FileDownload[]): Response {
  const names = uniqueNames(files.map((f) => f.name));
  return new Response(zipStream(files.map((f, i) => ({ name: names[i]!, data: f.data }))), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": contentDisposition(fileName),
      "Cache-Control": "private, no-store",
    },
  });
}

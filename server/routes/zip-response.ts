import { contentDisposition } from "../services/compression/content-disposition.ts";
import type { ZipFile } from "../services/compression/compression-service.ts";
import { uniqueNames, zipStream } from "../services/compression/zip-stream.ts";

/** Completed results streamed as one ZIP, entries named uniquely, under `fileName`. */
export function zipResponse(fileName: string, files: ZipFile[]): Response {
  const names = uniqueNames(files.map((f) => f.name));
  return new Response(zipStream(files.map((f, i) => ({ name: names[i]!, open: f.open }))), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": contentDisposition(fileName),
      "Cache-Control": "private, no-store",
    },
  });
}

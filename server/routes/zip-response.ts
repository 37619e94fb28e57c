import { contentDisposition } from "../services/compression/content-disposition.ts";
import type { ZipFile } from "../services/compression/downloads.ts";
import type { ZipVersions } from "../services/compression/downloads.ts";
import { zipStream } from "../services/compression/zip-stream.ts";

/** `?versions=all` on the ZIP routes: every version, named by its settings; otherwise each photo's latest. */
export function zipVersions(query: string | undefined): ZipVersions {
  return query === "all" ? "all" : "latest";
}

/** Completed results streamed as one ZIP under `fileName`, entries already named distinctly (queries.ts). */
export function zipResponse(fileName: string, files: ZipFile[]): Response {
  return new Response(zipStream(files), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": contentDisposition(fileName),
      "Cache-Control": "private, no-store",
    },
  });
}

/**
 * A web set's files as the job's result (issue 30, item 5): named after the photo (`beach/beach-1280.avif`),
 * with picture.html and manifest.json beside them, in one ZIP (images stored, the text deflated). The ZIP
 * is the download, the API's answer and the CLI's folder; the `WebSet` is what the job lists.
 */
import { zipSync } from "fflate";
import { resultBaseName } from "../../../contract/file-names.ts";
import {
  manifestJson,
  pictureHtml,
  SET_MANIFEST_FILE,
  SET_PICTURE_FILE,
  setFileName,
  type WebSet,
} from "../../../contract/web-sets.ts";
import type { SetOutput } from "../../../codecs/mod.ts";

export function packWebSet(filename: string, outputs: SetOutput[]): { zip: Uint8Array; webSet: WebSet } {
  const name = resultBaseName(filename);
  const files = outputs.map((o) => ({
    file: setFileName(name, o.width, o.format),
    format: o.format,
    width: o.width,
    height: o.height,
    bytes: o.bytes.length,
    score: Math.round(o.score * 100) / 100,
  }));
  const webSet: WebSet = { name, files };
  const text = new TextEncoder();
  const entries: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
  outputs.forEach((o, i) => entries[`${name}/${files[i]!.file}`] = [o.bytes, { level: 0 }]);
  entries[`${name}/${SET_PICTURE_FILE}`] = [text.encode(pictureHtml(webSet) + "\n"), { level: 6 }];
  entries[`${name}/${SET_MANIFEST_FILE}`] = [text.encode(manifestJson(webSet)), { level: 6 }];
  return { zip: zipSync(entries), webSet };
}

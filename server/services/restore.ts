/**
 * Restore (issue 32, item 4): a JPEG XL file made from a JPEG (by us or any libjxl `cjxl`) gives its original
 * JPEG back, byte for byte. The transcoder runs where the codecs run (the pool's workers); this checks the bytes
 * first and names the result.
 */
import { CodecError, sniffFormat } from "../../codecs/mod.ts";
import { FORMAT_NAMES } from "../../codecs/container/sniff.ts";
import { resultBaseName } from "../../contract/file-names.ts";

/** What can rebuild a JPEG from a JPEG XL file: the codec pool (Compressor.restore). */
export interface Restorer {
  restore(jxl: Uint8Array): Promise<Uint8Array>;
}

/** The JPEG `jxl` holds, or a CodecError saying why not (not a JPEG XL file, no reconstruction data, damaged). */
export async function restoreJpeg(restorer: Restorer, jxl: Uint8Array): Promise<Uint8Array> {
  const format = sniffFormat(jxl);
  if (format === "empty") throw new CodecError("invalid_settings", "The request body is empty: send the .jxl file");
  if (format !== "jxl") {
    throw new CodecError(
      "unsupported_format",
      `Restore takes a JPEG XL file (.jxl) made from a JPEG; this file is ${
        format === "unknown" ? "not an image we know" : FORMAT_NAMES[format]
      }`,
    );
  }
  return await restorer.restore(jxl);
}

/** `beach.jxl` → `beach.jpg` (a name without one gets `.jpg` added). */
export const restoredName = (name: string | null): string =>
  `${resultBaseName((name || "image").replace(/\.jxl$/i, ""))}.jpg`;

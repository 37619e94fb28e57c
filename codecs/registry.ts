/**
 * The codec registry: every encoder the engine has, and which of them writes each output format. Adding a
 * format (AVIF, say) is one folder exporting a `Codec`, one entry here and one value in contract/settings.ts.
 * The same registry serves the server's workers and (for the live preview) the browser.
 */
import type { CompressSettings, OutputFormat } from "../contract/settings.ts";
import type { Codec, CodecId } from "./codec.ts";
import { mozjpeg } from "./jpeg/codec.ts";
import { jpegli } from "./jpegli/codec.ts";
import { webp } from "./webp/codec.ts";

export const CODECS: Readonly<Record<CodecId, Codec>> = { mozjpeg, jpegli, webp };

/** The encoders of each output format, the default first. Score goals search all of a format's encoders. */
export const FORMAT_CODECS: Readonly<Record<OutputFormat, readonly CodecId[]>> = {
  jpeg: ["mozjpeg", "jpegli"],
  webp: ["webp"],
};

/** The codec that runs a fixed-quality job: the chosen encoder where the format has it, else the format's own. */
export function codecFor(settings: Pick<CompressSettings, "format" | "encoder">): Codec {
  const ids = FORMAT_CODECS[settings.format];
  return CODECS[ids.includes(settings.encoder) ? settings.encoder : ids[0]!];
}

/** Every encoder a score goal searches for this format. */
export function searchCodecs(format: OutputFormat): Codec[] {
  return FORMAT_CODECS[format].map((id) => CODECS[id]);
}

/** The codec whose output a sniffed format is (to decode a stored result), if the engine writes that format. */
export function outputCodec(format: string): Codec | null {
  const ids = (FORMAT_CODECS as Record<string, readonly CodecId[] | undefined>)[format];
  return ids ? CODECS[ids[0]!] : null;
}

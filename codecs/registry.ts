/**
 * The codec registry: every encoder the engine has, by the codec ids of the format manifest
 * (contract/formats.ts), which says which of them writes each output format. Adding a format is one
 * folder exporting a `Codec`, one entry here and one in the manifest.
 * The same registry serves the server's workers and (for the live preview) the browser.
 */
import type { CompressSettings } from "../contract/settings.ts";
import { candidateFormats, FORMATS, type OutputFormat } from "../contract/formats.ts";
import { avif } from "./avif/codec.ts";
import type { Codec, CodecId } from "./codec.ts";
import { mozjpeg } from "./jpeg/codec.ts";
import { jpegli } from "./jpegli/codec.ts";
import { webp } from "./webp/codec.ts";

export const CODECS: Readonly<Record<CodecId, Codec>> = { mozjpeg, jpegli, webp, avif };

/** The encoders of an output format, the default first (the format manifest's). Score goals search all of them. */
const encodersOf = (format: OutputFormat): readonly CodecId[] => FORMATS[format].encoders;

/**
 * The codec that runs a fixed-quality job: the chosen encoder where the format has it, else the format's own
 * (on format=auto, which always searches, the first allowed format's).
 */
export function codecFor(settings: Pick<CompressSettings, "format" | "formats" | "encoder">): Codec {
  const ids = encodersOf(candidateFormats(settings)[0]!);
  return CODECS[ids.includes(settings.encoder) ? settings.encoder : ids[0]!];
}

/** Every encoder a score goal searches: the format's, or on format=auto every allowed format's. */
export function searchCodecs(settings: Pick<CompressSettings, "format" | "formats">): Codec[] {
  return candidateFormats(settings).flatMap((format) => encodersOf(format).map((id) => CODECS[id]));
}

/** The codec whose output a sniffed format is (to decode a stored result), if the engine writes that format. */
export function outputCodec(format: string): Codec | null {
  return format in FORMATS ? CODECS[encodersOf(format as OutputFormat)[0]!] : null;
}

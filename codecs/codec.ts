/**
 * What every codec in the registry (codecs/registry.ts) provides: one folder per encoder or output format
 * (jpeg/ for MozJPEG, jpegli/, webp/, avif/), each exporting one `Codec`. The pipeline asks these fields and never
 * tests for a format or an encoder by name.
 */
import type { ChromaSubsampling, CodecId, CompressSettings } from "../contract/settings.ts";
import { appliesTo, type FormatMetadata, FORMATS, type OutputFormat } from "../contract/formats.ts";
import type { MetadataPlan } from "./container/metadata.ts";
import type { RgbaImage } from "./jpeg/decode.ts";

export type { CodecId };

export interface EncodeContext {
  /** A one-component (grey) source: encoded as a one-component file where the format has one. */
  grayscale: boolean;
  /** Encoding for a score goal: an encoder may prefer other tables there (MozJPEG does). */
  scoreGoal: boolean;
  /**
   * The pixels of the image the output is for, when a smaller one (a mosaic, the live preview's crop) stands
   * for it: an encoder whose effort depends on the size (AVIF's speed) encodes it as it would the whole.
   */
  imagePixels?: number;
  /**
   * One file of a web set, which encodes every width in every format: an encoder whose effort depends on the
   * size gives each width the effort it gives large images.
   */
  inSet?: boolean;
}

export interface Codec {
  /** Reported per job as `encoder`; the app's names for it are in contract/codec-labels.ts. */
  id: CodecId;
  /** The format it writes; the next three fields are that format's facts (`writes`). */
  format: OutputFormat;
  mimeType: string;
  extension: string;
  /**
   * Encode time at quality 80, single thread, ms per megapixel (measured on the corpus in WebAssembly): a score
   * goal prefers the faster encoder unless the mosaic predicts the other one clearly smaller.
   */
  encodeMsPerMp: number;
  capabilities: {
    /** What of the source's metadata the output carries (the format's; `planMetadata` plans and reports it). */
    metadata: FormatMetadata;
    /** The chroma subsampling setting applies (else the format fixes it). */
    chromaSubsampling: boolean;
  };
  /** Pixels as this encoder needs them for these settings, made once per job (the input, or a new image). */
  prepare(pixels: RgbaImage, settings: CompressSettings, grayscale: boolean): RgbaImage;
  encode(pixels: RgbaImage, settings: CompressSettings, quality: number, context: EncodeContext): Promise<Uint8Array>;
  /** The encoder's file with the planned metadata put in, as its container holds it (unchanged if none). */
  carryMetadata(encoded: Uint8Array, plan: MetadataPlan): Uint8Array;
  /**
   * Gives back the encoder's heap when it holds more than `keepBytes` (its next encode makes a new one); true
   * when one was dropped, for the caller to collect.
   */
  releaseEncoderHeap(keepBytes: number): boolean;
  /**
   * Decodes this codec's own output (to measure it). `borrow`: the pixels may stay in the decoder's heap, for a
   * caller done with them before the next decode (jpeg/decode.ts); a decoder that must copy them out ignores it.
   */
  decode(bytes: Uint8Array, borrow?: boolean): Promise<RgbaImage>;
  /** The quality setting expected to score `goal` on SSIMULACRA 2: a score search's first probe. */
  predictQuality(goal: number, chroma: ChromaSubsampling): number;
  /**
   * The encoder's own setting a quality maps to, where neighbouring qualities share one (AVIF's quantiser): they
   * make the same file, so a search never probes two qualities of one setting. Absent: each quality its own.
   */
  encoderSetting?(quality: number): number;
}

/** A codec's format facts, from the format manifest (contract/formats.ts): never written twice. */
export function writes(format: OutputFormat): Pick<Codec, "format" | "mimeType" | "extension" | "capabilities"> {
  const facts = FORMATS[format];
  return {
    format,
    mimeType: facts.mimeType,
    extension: facts.extension,
    capabilities: { metadata: facts.metadata, chromaSubsampling: appliesTo(format, "chromaSubsampling") },
  };
}

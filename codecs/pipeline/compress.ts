/**
 * One job, run inside a worker: inspect → refuse early → decode → orient →
 * thumbnail → encode (once, or a bounded search for a target) → splice metadata →
 * measure → never bigger. Steps take the AbortSignal first.
 */
import { type ChromaSubsampling, type CompressSettings, scoreGoalOf } from "../../contract/settings.ts";
import {
  AUTO_FORMAT,
  type FormatChoiceReport,
  type FormatMetadata,
  losslessOf,
  type OutputFormat,
} from "../../contract/formats.ts";
import { archiveOriginal, inLosslessFormat } from "./lossless.ts";
import { jxlToJpeg } from "../jxl/lossless.ts";
import type { Codec } from "../codec.ts";
import { CodecError, tooManyPixels } from "../errors.ts";
import { inspectJpeg, type JpegInfo, refuseImpossibleSize } from "../container/inspect.ts";
import { sniffFormat } from "../container/sniff.ts";
import { type MetadataPlan, type MetadataReport, planMetadata } from "../container/metadata.ts";
import { applyOrientation } from "../image/orientation.ts";
import { releasePixels } from "../image/release.ts";
import { planResize, planTo, resample } from "../image/resize.ts";
import { thumbnailPixels } from "../image/thumbnail.ts";
import { decodeJpegPixels, releaseJpegDecoder, type RgbaImage } from "../jpeg/decode.ts";
import { encodeJpegPixels } from "../jpeg/encode.ts";
import { thumbnailOptions } from "../jpeg/options.ts";
import { type MeasurePlanes, measurePlanes } from "../quality/planes.ts";
import { IDENTICAL, type QualityReport } from "../quality/report.ts";
import { collectGarbageSoon } from "../collect-garbage.ts";
import { giveBackIdleHeaps } from "../idle-heaps.ts";
import { codecFor, outputCodec, searchCodecs } from "../registry.ts";
import type { CompressResult, CompressTimings, MeasuredResult, ProgressCallback } from "../types.ts";
import { searchEncoders } from "./encoder-search.ts";
import { type Encoded, measureDecoded, measureOutput } from "./measure.ts";
import { releaseHeapsBeside } from "./search-heaps.ts";
import { OutOfReach, searchQuality } from "./target-search.ts";
import { AGREEMENT_MARGIN, chromaForGoal, searchSpecFor } from "./targets.ts";

export interface CompressInput {
  bytes: Uint8Array;
  settings: CompressSettings;
  maxPixels: number;
  /**
   * Return the result unmeasured (`quality: null`) when no score goal needs the
   * metric: the caller scores it later with `scoreImage`, off the result's path.
   */
  deferScore?: boolean;
}

export function refuseUnsupported(info: JpegInfo, maxPixels: number): void {
  if (info.colorSpace === "cmyk" || info.colorSpace === "ycck") {
    throw new CodecError(
      "unsupported_format",
      "The image uses CMYK colour, which is not supported; save it as RGB and try again",
    );
  }
  if (info.precision !== 8) {
    throw new CodecError(
      "unsupported_format",
      `The image uses ${info.precision}-bit samples; only 8-bit JPEG is supported`,
    );
  }
  if (info.sofType === "lossless" || info.sofType === "hierarchical") {
    throw new CodecError("unsupported_format", `The image is a ${info.sofType} JPEG, which is not supported`);
  }
  if (info.width * info.height > maxPixels) throw tooManyPixels(info.width, info.height, maxPixels);
}

/** A job's timings before its first step (`probes`: the full-size encodes a fixed quality makes). */
export const newTimings = (probes: number): CompressTimings => ({
  decodeMs: 0,
  resizeMs: 0,
  encodeMs: 0,
  measureMs: 0,
  proxyMs: 0,
  totalMs: 0,
  probes,
  proxyProbes: 0,
});

/** The job list's small upright JPEG of `image` (image/thumbnail.ts). */
export const encodeThumbnail = (image: RgbaImage): Promise<Uint8Array> =>
  encodeJpegPixels(thumbnailPixels(image), thumbnailOptions());

/** A job's first steps: inspect the header, refuse what the pipeline would refuse anyway, decode upright. */
export async function openSource(
  signal: AbortSignal,
  input: CompressInput,
  onProgress: ProgressCallback,
  timings: CompressTimings,
  /** The header, when the caller has already read it. */
  inspected?: JpegInfo,
  /** See `decodeJpegPixels`: the caller decodes no other JPEG while it uses the pixels. */
  borrow = false,
): Promise<{ info: JpegInfo; upright: RgbaImage }> {
  const { bytes } = input;
  onProgress("inspect", 2);
  const info = inspected ?? inspectJpeg(bytes);
  refuseUnsupported(info, input.maxPixels);
  refuseImpossibleSize(info, bytes.length);
  signal.throwIfAborted();
  onProgress("decode", 5);
  const t = performance.now();
  const upright = await decodeUpright(bytes, info, borrow);
  timings.decodeMs = performance.now() - t;
  signal.throwIfAborted();
  return { info, upright };
}

export function compressImage(
  signal: AbortSignal,
  input: CompressInput & { deferScore?: false },
  onProgress?: ProgressCallback,
): Promise<MeasuredResult>;
export function compressImage(
  signal: AbortSignal,
  input: CompressInput,
  onProgress?: ProgressCallback,
): Promise<CompressResult>;
export async function compressImage(
  signal: AbortSignal,
  input: CompressInput,
  onProgress: ProgressCallback = () => {},
): Promise<CompressResult> {
  const { settings } = input;
  const holds = settings.format === AUTO_FORMAT ? null : losslessOf(settings.format);
  if (!holds) return await compressPixels(signal, input, onProgress);
  // JPEG XL (issue 32): the upload itself, or the JPEG these settings make, transcoded losslessly.
  if (settings.archive) return await archiveOriginal(signal, input, onProgress);
  const held = await compressPixels(signal, { ...input, settings: { ...settings, format: holds } }, onProgress);
  // The JPEG is made: the heaps its decode, encodes and measures grew go back before libjxl's grows beside them.
  await giveBackIdleHeaps();
  return inLosslessFormat(held, settings.format as OutputFormat);
}

/** One job's output from the pixels: decode, resize, encode or search, never bigger, measure. */
async function compressPixels(
  signal: AbortSignal,
  input: CompressInput,
  onProgress: ProgressCallback,
): Promise<CompressResult> {
  const started = performance.now();
  const timings = newTimings(1);
  const { bytes, settings } = input;
  // Without a score goal no candidate is decoded while the job holds its pixels: they stay in the decoder's heap.
  const borrow = scoreGoalOf(settings) === null;
  const { info, upright: decoded } = await openSource(signal, input, onProgress, timings, undefined, borrow);
  let t = performance.now();
  // Resized, this is the original for everything that follows: the score, the thumbnail, the result's size.
  t = performance.now();
  const resize = planResize(decoded.width, decoded.height, settings);
  const upright = resize ? resample(decoded, resize) : decoded;
  if (resize) releasePixels(decoded);
  timings.resizeMs = performance.now() - t;
  signal.throwIfAborted();

  t = performance.now();
  const thumbnail = await encodeThumbnail(upright);
  timings.encodeMs += performance.now() - t;

  const goal = scoreGoalOf(settings);
  const measureNow = goal !== null || !input.deferScore;
  t = performance.now();
  const originalPlanes = measureNow ? measurePlanes(upright, undefined, true) : null;
  timings.measureMs += performance.now() - t;
  // The pyramid lives in the metric's WASM memory: freed when the job ends, however it ends.
  try {
    const { chosen, chosenQuality, metadata, toEncode, formatChoice } = await encodeOutput(signal, upright, {
      info,
      settings,
      planes: originalPlanes,
      timings,
      onProgress,
      releaseImage: true,
    });
    // Encoding is over: only the measuring planes are needed from here.
    releasePixels(toEncode);
    onProgress("measure", 85);
    // Never bigger, where the pixels are the upload's own: a resized result is always returned.
    if (!resize && chosen.size >= bytes.length) {
      timings.totalMs = performance.now() - started;
      onProgress("done", 100);
      return keepOriginal(bytes, thumbnail, upright, metadata.report, chosenQuality, timings);
    }
    if (!chosen.report && originalPlanes) {
      t = performance.now();
      chosen.report = await measureOutput(chosen.bytes, chosen.codec, originalPlanes);
      timings.measureMs += performance.now() - t;
    }
    timings.totalMs = performance.now() - started;
    onProgress("done", 100);
    const codec = chosen.codec;
    return {
      bytes: chosen.bytes,
      mimeType: codec.mimeType,
      extension: codec.extension,
      encoder: codec.id,
      width: upright.width,
      height: upright.height,
      originalSize: bytes.length,
      compressedSize: chosen.size,
      keptOriginal: false,
      quality: chosen.report,
      metadata: metadata.report,
      chosenQuality,
      thumbnail,
      timings: roundTimings(timings),
      formatChoice,
    };
  } finally {
    originalPlanes?.pyramid.free();
  }
}

/**
 * The quality report of an output against its original, measured apart from
 * the compression (a deferred score): the original is decoded, turned upright
 * and, for a resized result, resized to the result's size again, exactly as
 * `compressImage` measures it.
 */
export async function scoreImage(
  signal: AbortSignal,
  original: Uint8Array,
  stored: Uint8Array,
): Promise<QualityReport> {
  // A JPEG XL result holds a JPEG: its pixels are that JPEG's.
  const output = sniffFormat(stored) === "jxl" ? jxlToJpeg(stored) : stored;
  const decoder = decoderFor(output);
  // A JPEG result is decoded where the original's pixels are borrowed from: after the original's pyramid is made,
  // and borrowed in turn. Another format's decoder is its own.
  const jpeg = sniffFormat(output) === "jpeg";
  let result = jpeg ? null : await decoder.decode(output);
  const size = result ?? inspectJpeg(output);
  signal.throwIfAborted();
  const upright = await decodeUpright(original, inspectJpeg(original), true);
  signal.throwIfAborted();
  const plan = planTo(upright, size.width, size.height);
  const measured = plan ? resample(upright, plan) : upright;
  if (plan) releasePixels(upright);
  const planes = measurePlanes(measured);
  releasePixels(measured);
  try {
    signal.throwIfAborted();
    result ??= await decoder.decode(output, true);
    return await measureDecoded(result, planes);
  } finally {
    planes.pyramid.free();
  }
}

/** Decodes a JPEG and turns it upright by its EXIF orientation (the pixels every step works on). */
export async function decodeUpright(bytes: Uint8Array, info: JpegInfo, borrow = false): Promise<RgbaImage> {
  const stored = await decodeJpegPixels(bytes, borrow);
  if (stored.width !== info.width || stored.height !== info.height) {
    throw new CodecError("corrupt_image", "Cannot decode the image: its size does not match its header");
  }
  const upright = applyOrientation(stored, info.orientation);
  if (upright !== stored) releasePixels(stored);
  return upright;
}

/** The codec that decodes a stored result: the first of the format its bytes carry. */
function decoderFor(output: Uint8Array): Pick<Codec, "decode"> {
  const format = sniffFormat(output);
  const codec = outputCodec(format);
  if (!codec) throw new CodecError("corrupt_image", `Cannot measure a result stored as ${format}`);
  return codec;
}

function keepOriginal(
  bytes: Uint8Array,
  thumbnail: Uint8Array,
  upright: RgbaImage,
  report: MetadataReport,
  chosenQuality: number | null,
  timings: CompressResult["timings"],
): CompressResult {
  return {
    bytes,
    // The input: a JPEG, made by no encoder of ours.
    mimeType: "image/jpeg",
    extension: "jpg",
    encoder: null,
    width: upright.width,
    height: upright.height,
    originalSize: bytes.length,
    compressedSize: bytes.length,
    keptOriginal: true,
    quality: IDENTICAL,
    // The untouched file keeps everything it had.
    metadata: { ...report, kept: report.found, removed: [] },
    chosenQuality,
    thumbnail,
    timings: roundTimings(timings),
  };
}

function roundTimings(t: CompressResult["timings"]): CompressResult["timings"] {
  const r = (v: number) => Math.round(v * 10) / 10;
  return {
    decodeMs: r(t.decodeMs),
    resizeMs: r(t.resizeMs),
    encodeMs: r(t.encodeMs),
    measureMs: r(t.measureMs),
    proxyMs: r(t.proxyMs),
    totalMs: r(t.totalMs),
    probes: t.probes,
    proxyProbes: t.proxyProbes,
  };
}

/** One output: the kept encode, its quality when searched, its metadata plan and format=auto's report. */
export interface EncodedOutput {
  chosen: Encoded;
  chosenQuality: number | null;
  metadata: MetadataPlan;
  /** The image as the codec took it, for the caller to release. */
  toEncode: RgbaImage;
  formatChoice: FormatChoiceReport | null;
  /** The chroma subsampling the kept encode used. */
  chroma: ChromaSubsampling;
}

/** What `encodeOutput` needs besides the image. */
export interface OutputContext {
  info: JpegInfo;
  settings: CompressSettings;
  /** The image's pyramid, when a score goal or an immediate score needs it. */
  planes: MeasurePlanes | null;
  timings: CompressTimings;
  onProgress: ProgressCallback;
  /** Release `image` as soon as the codec has its own copy (a job's last use of it); else the caller keeps it. */
  releaseImage?: boolean;
  /**
   * Full chroma already needed by a larger rendition of this image (a web set's wider width): searched first,
   * since halved chroma that failed at the larger size fails at a smaller one too (downscaling sharpens colour
   * edges relative to the pixel grid).
   */
  fullChromaFirst?: boolean;
  /** Where a search without a mosaic starts, by encoder: the quality a larger rendition needed (encoder-search.ts). */
  startAt?: ReadonlyMap<Codec, number>;
  /** One file of a web set (encoder-search.ts `inSet`). */
  inSet?: boolean;
}

/**
 * One output of `image` (the job's original: upright, resized) for `settings`: the fixed codec at its quality,
 * a size target's search, or a score goal's search across the format's encoders (the goal also chooses the
 * chroma subsampling). `toEncode` is the image as the codec took it (`image` itself, or a new one), for the
 * caller to release.
 */
export async function encodeOutput(
  signal: AbortSignal,
  image: RgbaImage,
  { info, settings, planes, timings, onProgress, releaseImage = false, fullChromaFirst = false, startAt, inSet }:
    OutputContext,
): Promise<EncodedOutput> {
  const grayscale = info.colorSpace === "grayscale";
  // A score goal chooses the chroma subsampling itself (targets.ts) and searches every encoder of the format
  // (on format=auto, of every allowed format).
  const goal = scoreGoalOf(settings);
  const fixedCodec = codecFor(settings);
  const codecs = goal === null ? [fixedCodec] : searchCodecs(settings);
  // MozJPEG's decoder read the source; when no candidate is read back with it, its heap (87 MB for 20 MP)
  // need not sit beside an AVIF encoder's until the job ends.
  if (!codecs.some((c) => c.decode === decodeJpegPixels)) await releaseJpegDecoder();
  const encodeSettings = goal === null || !codecs.some((c) => c.capabilities.chromaSubsampling)
    ? settings
    : { ...settings, chromaSubsampling: chromaForGoal(goal, grayscale, info.chromaSubsampling) };
  // A goal's chroma is 4:2:0 or 4:4:4, which every codec takes as is: one prepared image serves them all.
  const toEncode = fixedCodec.prepare(image, encodeSettings, grayscale);
  if (releaseImage && toEncode !== image) releasePixels(image);
  const plans = new Map<FormatMetadata, MetadataPlan>();
  const metadataFor = (codec: Codec): MetadataPlan => {
    const carries = codec.capabilities.metadata;
    if (!plans.has(carries)) plans.set(carries, planMetadata(info, settings.stripMetadata, carries));
    return plans.get(carries)!;
  };
  const context = { grayscale, scoreGoal: goal !== null, imagePixels: toEncode.width * toEncode.height, inSet };

  const encodeAt = async (
    codec: Codec,
    quality: number,
    measure: boolean,
    using: CompressSettings = encodeSettings,
    sizeToBeat = Infinity,
  ): Promise<Encoded> => {
    signal.throwIfAborted();
    // A full-size probe runs without the heaps idle beside it (search-heaps.ts).
    if (measure && releaseHeapsBeside(codec)) await collectGarbageSoon();
    let te = performance.now();
    const encoded = await codec.encode(toEncode, using, quality, context);
    const out = codec.carryMetadata(encoded, metadataFor(codec));
    timings.encodeMs += performance.now() - te;
    if (!measure) return { codec, quality, bytes: out, size: out.length, score: 0, report: null };
    // A probe that cannot win (no smaller than a passing result) is not worth its score.
    if (out.length >= sizeToBeat) {
      return { codec, quality, bytes: out, size: out.length, score: -Infinity, report: null };
    }
    te = performance.now();
    const report = await measureOutput(out, codec, planes!);
    timings.measureMs += performance.now() - te;
    // The unrounded metric: a 79.96 must not pass a goal of 80 as the report's 80.0.
    return { codec, quality, bytes: out, size: out.length, score: report.ssimulacra2, report };
  };

  if (goal !== null) {
    const aim = goal + AGREEMENT_MARGIN;
    const search = (
      using: CompressSettings,
      { startAt, outOfReachEnds }: { startAt?: ReadonlyMap<Codec, number>; outOfReachEnds?: boolean } = {},
    ) =>
      searchEncoders(codecs, toEncode, {
        signal,
        startAt,
        inSet,
        outOfReachEnds,
        goal: aim,
        chroma: using.chromaSubsampling,
        proxyEncode: async (codec, pixels, q) => {
          const tp = performance.now();
          const out = await codec.encode(pixels, using, q, context);
          timings.proxyMs += performance.now() - tp;
          return out;
        },
        fullProbe: (codec, q, probes, maxProbes, sizeToBeat) => {
          onProgress("encode", 10 + Math.round((70 * probes) / maxProbes));
          return encodeAt(codec, q, true, using, sizeToBeat);
        },
        timings,
      });
    // Chroma is part of the search: where halved chroma cannot reach the goal at any quality (sharp colour
    // detail the source keeps at full resolution), full chroma is searched too, and the better result kept.
    const fullChroma = { ...encodeSettings, chromaSubsampling: "4:4:4" as const };
    const mayUseFullChroma = encodeSettings.chromaSubsampling !== "4:4:4" && !grayscale &&
      info.chromaSubsampling !== "4:2:0" && codecs.some((c) => c.capabilities.chromaSubsampling);
    let used = fullChromaFirst && mayUseFullChroma ? fullChroma : encodeSettings;
    // Where the mosaic already shows halved chroma out of reach, no full-size probe confirms it (at q100: an
    // AVIF encode of seconds that cannot be kept).
    const tryFirst = used !== fullChroma && mayUseFullChroma;
    let result = await search(used, { startAt, outOfReachEnds: tryFirst }).catch((error) => {
      if (!(error instanceof OutOfReach)) throw error;
      used = fullChroma;
      return search(fullChroma);
    });
    if (result.chosen.score < aim && mayUseFullChroma && used !== fullChroma) {
      const probes = result.probes, proxyProbes = result.proxyProbes;
      const full = await search(fullChroma);
      const passes = full.chosen.score >= aim;
      if (passes || full.chosen.score > result.chosen.score) [result, used] = [full, fullChroma];
      result = { ...result, probes: probes + full.probes, proxyProbes: proxyProbes + full.proxyProbes };
    }
    timings.probes = result.probes;
    timings.proxyProbes = result.proxyProbes;
    const { chosen, formatChoice } = result;
    return {
      chosen,
      chosenQuality: chosen.quality,
      metadata: metadataFor(chosen.codec),
      toEncode,
      formatChoice,
      chroma: used.chromaSubsampling,
    };
  }
  if (settings.target?.kind === "size") {
    const spec = searchSpecFor(settings.target);
    let probes = 0;
    const result = await searchQuality(spec, (q) => {
      onProgress("encode", 10 + Math.round((70 * ++probes) / spec.maxProbes));
      return encodeAt(fixedCodec, q, false);
    });
    timings.probes = result.probes;
    const metadata = metadataFor(fixedCodec);
    const chroma = encodeSettings.chromaSubsampling;
    return {
      chosen: result.chosen,
      chosenQuality: result.chosen.quality,
      metadata,
      toEncode,
      formatChoice: null,
      chroma,
    };
  }
  onProgress("encode", 20);
  const chosen = await encodeAt(fixedCodec, settings.quality, false);
  const chroma = encodeSettings.chromaSubsampling;
  return { chosen, chosenQuality: null, metadata: metadataFor(fixedCodec), toEncode, formatChoice: null, chroma };
}

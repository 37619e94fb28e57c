/**
 * A web set (issue 30, item 5; DESIGN §12): one decode of the photo, then per width (none wider than the
 * source) the original resized to it and measured once, and per format the same output search a job runs
 * (`encodeOutput`: the target's encoder search, default auto ≥ 80) against that resized original. The
 * files come back with their scores; the server names them and packs them with picture.html and
 * manifest.json (contract/web-sets.ts).
 */
import type { CompressSettings, Target } from "../../contract/settings.ts";
import { fittingEncoder, FORMATS, losslessOf, type OutputFormat } from "../../contract/formats.ts";
import { jpegToJxl } from "../jxl/lossless.ts";
import { setWidths } from "../../contract/web-sets.ts";
import { planMetadata } from "../container/metadata.ts";
import { releasePixels } from "../image/release.ts";
import { planResize, resample } from "../image/resize.ts";
import { type MeasurePlanes, measurePlanes } from "../quality/planes.ts";
import type { QualityReport } from "../quality/report.ts";
import type { CompressResult, CompressTimings, ProgressCallback, SetOutput } from "../types.ts";
import { inspectJpeg } from "../container/inspect.ts";
import type { Codec } from "../codec.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import {
  compressImage,
  type CompressInput,
  encodeOutput,
  encodeThumbnail,
  newTimings,
  openSource,
} from "./compress.ts";
import { measureOutput } from "./measure.ts";

const AUTO: Target = { kind: "auto" };

/**
 * One of the parts a set is split into when it runs alone on several workers (ADR 038): the parts take the
 * set's units of work one at a time, widest first, from one counter they share (`takeUnits`), so a part that
 * is done early takes the next one instead of waiting for the other; `joinSetParts` joins their results.
 */
export interface SetPart {
  /** The index of the next unit to take, in `next[0]`: over a SharedArrayBuffer, seen by every part. */
  next: Int32Array;
  /** How many parts share it. */
  of: number;
}

/** The shared counter of a set split into `of` parts (SetPart). */
export const newSetPart = (of: number): SetPart => ({ next: new Int32Array(new SharedArrayBuffer(4)), of });

/**
 * A set runs on at most this many workers: its widest AVIF is the longest unit of a default set (so a third
 * worker would shorten it little), and each part decodes the photo again.
 */
export const MAX_SET_PARTS = 2;

/** The workers a job's settings can use at once: a web set with more than one width is split in MAX_SET_PARTS. */
export const setLanes = (s: { widths: readonly number[] | null }): number =>
  Math.min(MAX_SET_PARTS, s.widths?.length ?? 1);

/** One unit of a set's work: one width's files of one format, or of JPEG and the formats that hold it. */
export interface SetUnit {
  width: number;
  formats: OutputFormat[];
}

/**
 * A set's units, widest first; within a width, each format that is not JPEG-based (AVIF, WebP: slow) alone,
 * then JPEG with what holds its encode (JPEG XL: one JPEG, so they stay together). A part that takes a
 * width's AVIF leaves its JPEG to the other part.
 */
export function setUnits(widths: readonly number[], formats: readonly OutputFormat[]): SetUnit[] {
  const jpegBased = formats.filter((f) => (losslessOf(f) ?? f) === "jpeg");
  const others = formats.filter((f) => !jpegBased.includes(f));
  return [...widths].sort((a, b) => b - a).flatMap((width) => [
    ...others.map((format) => ({ width, formats: [format] })),
    ...(jpegBased.length > 0 ? [{ width, formats: jpegBased }] : []),
  ]);
}

/**
 * The units a part works on, in order: each taken from the counter when the part is ready for it (the first
 * before the photo is decoded, so a part left with none decodes nothing); without a part, all of them.
 */
export function takeUnits(units: readonly SetUnit[], part?: SetPart): { next(): SetUnit | null; expected: number } {
  let own = 0;
  return {
    next: () => units[part ? Atomics.add(part.next, 0, 1) : own++] ?? null,
    // For progress: the part's even share.
    expected: part ? Math.ceil(units.length / part.of) : units.length,
  };
}

/** A set's files widest first, each width's in the order the settings list their formats. */
const inSetOrder = (files: SetOutput[], formats: readonly OutputFormat[]): SetOutput[] =>
  files.sort((a, b) => b.width - a.width || formats.indexOf(a.format) - formats.indexOf(b.format));

/** What a worker runs for a job: a web set (or a part of one) when the settings ask for widths, else one output. */
export function compressJob(
  signal: AbortSignal,
  input: CompressInput & { part?: SetPart },
  onProgress?: ProgressCallback,
) {
  return input.settings.widths ? compressSet(signal, input, onProgress) : compressImage(signal, input, onProgress);
}

export async function compressSet(
  signal: AbortSignal,
  input: CompressInput & { part?: SetPart },
  onProgress: ProgressCallback = () => {},
): Promise<CompressResult> {
  const started = performance.now();
  const timings = newTimings(0);
  const { bytes, settings, part } = input;
  // The widths are known from the header: a part that finds none left (a photo narrower than most widths, or
  // the other part took them) decodes nothing.
  const header = inspectJpeg(bytes);
  const units = takeUnits(setUnits(setWidths(settings.widths!, header.displayWidth), settings.formats), part);
  let unit = units.next();
  if (unit === null) return emptyPart(bytes.length, timings);
  const { info, upright } = await openSource(signal, input, onProgress, timings, header);
  let t = performance.now();
  const thumbnail = await encodeThumbnail(upright);

  // Progress counts against the part's even share (it may take more: then it stays near the end).
  const steps = units.expected;
  let done = 0;
  const files: SetOutput[] = [];
  let lowest: QualityReport | null = null;
  // Formats whose wider width needed full chroma: their narrower widths search it first.
  const fullChroma = new Set<OutputFormat>();
  // The quality each encoder's wider width landed on: where a narrower width's search starts without a mosaic.
  const startAt = new Map<Codec, number>();
  // The width in hand: its resized original and that original's pyramid, kept while the part's units are of it.
  let current = null as { width: number; image: RgbaImage; planes: MeasurePlanes } | null;
  const release = () => {
    if (!current) return;
    current.planes.pyramid.free();
    if (current.image !== upright) releasePixels(current.image);
    current = null;
  };
  try {
    for (; unit !== null; unit = units.next(), done++) {
      if (current?.width !== unit.width) {
        release();
        t = performance.now();
        const plan = planResize(upright.width, upright.height, {
          maxWidth: unit.width,
          maxHeight: null,
          fit: "inside",
        });
        const image = plan ? resample(upright, plan) : upright;
        timings.resizeMs += performance.now() - t;
        t = performance.now();
        current = { width: unit.width, image, planes: measurePlanes(image, undefined, true) };
        timings.measureMs += performance.now() - t;
      }
      const { image, planes } = current;
      // A lossless container (JPEG XL) holds this width's JPEG: encoded once, whether or not JPEG is listed.
      const held = new Map<OutputFormat, { bytes: Uint8Array; encoder: SetOutput["encoder"]; score: number }>();
      for (const format of unit.formats) {
        const holds = losslessOf(format);
        const from = held.get(holds ?? format);
        if (from) {
          const t = performance.now();
          const bytes = holds ? jpegToJxl(from.bytes) : from.bytes;
          timings.encodeMs += performance.now() - t;
          files.push({ ...from, format, width: image.width, height: image.height, bytes });
          continue;
        }
        const output: CompressSettings = {
          ...settings,
          format: holds ?? format,
          encoder: fittingEncoder(holds ?? format, settings.encoder),
          target: settings.target ?? AUTO,
          maxWidth: null,
          maxHeight: null,
          widths: null,
        };
        const { chosen, toEncode, chroma } = await encodeOutput(signal, image, {
          info,
          settings: output,
          planes,
          timings,
          fullChromaFirst: fullChroma.has(holds ?? format),
          startAt,
          inSet: true,
          onProgress: (stage, percent) =>
            onProgress(stage, Math.min(95, 10 + Math.round((85 * (done + percent / 100)) / steps))),
        });
        if (toEncode !== image) releasePixels(toEncode);
        if (chroma === "4:4:4") fullChroma.add(holds ?? format);
        startAt.set(chosen.codec, chosen.quality);
        if (!chosen.report) {
          const tm = performance.now();
          chosen.report = await measureOutput(chosen.bytes, chosen.codec, planes);
          timings.measureMs += performance.now() - tm;
        }
        if (!lowest || chosen.report.ssimulacra2 < lowest.ssimulacra2) lowest = chosen.report;
        const file = { encoder: chosen.codec.id, bytes: chosen.bytes, score: chosen.report.ssimulacra2 };
        held.set(chosen.codec.format, file);
        const bytes = holds ? jpegToJxl(chosen.bytes) : chosen.bytes;
        files.push({ ...file, format, width: image.width, height: image.height, bytes });
      }
    }
  } finally {
    release();
    releasePixels(upright);
  }
  inSetOrder(files, settings.formats);
  timings.totalMs = performance.now() - started;
  onProgress("done", 100);
  const widest = files[0]!;
  return {
    // The set's bytes are its files: the server packs them (with its names for them) into the result.
    bytes: new Uint8Array(0),
    mimeType: "application/zip",
    extension: "zip",
    encoder: null,
    width: widest.width,
    height: widest.height,
    originalSize: bytes.length,
    compressedSize: files.reduce((sum, f) => sum + f.bytes.length, 0),
    keptOriginal: false,
    // The job's score is its weakest file's: every file is at least this good.
    quality: lowest,
    // What the set's files carry varies by format (formats.ts): reported as its first format's.
    metadata: planMetadata(info, settings.stripMetadata, FORMATS[settings.formats[0]!].metadata).report,
    chosenQuality: null,
    thumbnail,
    timings,
    set: files,
  };
}

/** A part of a set with no width of its own. */
function emptyPart(originalSize: number, timings: CompressTimings): CompressResult {
  return {
    bytes: new Uint8Array(0),
    mimeType: "application/zip",
    extension: "zip",
    encoder: null,
    width: 0,
    height: 0,
    originalSize,
    compressedSize: 0,
    keptOriginal: false,
    quality: null,
    metadata: { found: [], kept: [], removed: [], orientation: 1 },
    chosenQuality: null,
    thumbnail: new Uint8Array(0),
    timings,
    set: [],
  };
}

/**
 * One set's result from its parts: the files widest first, each width's in the order `formats` lists them;
 * the size, thumbnail and metadata report of the part that made the widest; the weakest score; the time
 * the parts took side by side.
 */
export function joinSetParts(parts: readonly CompressResult[], formats: readonly OutputFormat[]): CompressResult {
  // A part's result has its widest file's size: the widest part first.
  const made = parts.filter((p) => (p.set ?? []).length > 0).sort((a, b) => b.width - a.width);
  const first = made[0]!;
  const files = inSetOrder(made.flatMap((p) => p.set!), formats);
  const lowest = made.map((p) => p.quality).reduce((a, b) => (!a || (b && b.ssimulacra2 < a.ssimulacra2) ? b : a));
  const timings = { ...first.timings };
  for (const p of made.slice(1)) {
    for (const key of Object.keys(timings) as (keyof CompressTimings)[]) {
      timings[key] = key === "totalMs" ? Math.max(timings[key], p.timings[key]) : timings[key] + p.timings[key];
    }
  }
  return {
    ...first,
    compressedSize: files.reduce((sum, f) => sum + f.bytes.length, 0),
    quality: lowest,
    timings,
    set: files,
  };
}

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
import { measurePlanes } from "../quality/planes.ts";
import type { QualityReport } from "../quality/report.ts";
import type { CompressResult, ProgressCallback, SetOutput } from "../types.ts";
import type { Codec } from "../codec.ts";
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

/** What a worker runs for a job: a web set when the settings ask for widths, else one output. */
export function compressJob(signal: AbortSignal, input: CompressInput, onProgress?: ProgressCallback) {
  return input.settings.widths ? compressSet(signal, input, onProgress) : compressImage(signal, input, onProgress);
}

export async function compressSet(
  signal: AbortSignal,
  input: CompressInput,
  onProgress: ProgressCallback = () => {},
): Promise<CompressResult> {
  const started = performance.now();
  const timings = newTimings(0);
  const { bytes, settings } = input;
  const { info, upright } = await openSource(signal, input, onProgress, timings);
  let t = performance.now();
  const thumbnail = await encodeThumbnail(upright);

  const widths = setWidths(settings.widths!, upright.width).sort((a, b) => b - a);
  const steps = widths.length * settings.formats.length;
  const files: SetOutput[] = [];
  let lowest: QualityReport | null = null;
  // Formats whose wider width needed full chroma: their narrower widths search it first.
  const fullChroma = new Set<OutputFormat>();
  // The quality each encoder's wider width landed on: where a narrower width's search starts without a mosaic.
  const startAt = new Map<Codec, number>();
  try {
    for (const width of widths) {
      t = performance.now();
      const plan = planResize(upright.width, upright.height, { maxWidth: width, maxHeight: null, fit: "inside" });
      const image = plan ? resample(upright, plan) : upright;
      timings.resizeMs += performance.now() - t;
      t = performance.now();
      const planes = measurePlanes(image, undefined, true);
      timings.measureMs += performance.now() - t;
      try {
        // A lossless container (JPEG XL) holds this width's JPEG: encoded once, whether or not JPEG is listed.
        const held = new Map<OutputFormat, { bytes: Uint8Array; encoder: SetOutput["encoder"]; score: number }>();
        for (const format of settings.formats) {
          const done = files.length;
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
            onProgress: (stage, percent) => onProgress(stage, 10 + Math.round((85 * (done + percent / 100)) / steps)),
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
      } finally {
        planes.pyramid.free();
        if (image !== upright) releasePixels(image);
      }
    }
  } finally {
    releasePixels(upright);
  }
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

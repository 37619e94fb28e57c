/**
 * The live preview's engine (issue 24, item 1), run in the browser's Web Worker with the same codecs, the same
 * registry and the same metric as the server's jobs. The original is decoded once and kept upright in memory;
 * each settings change then costs one encode of the visible crop (shown at once) and, apart, one encode and one
 * measurement at full size: the size and score the server's job will report for these settings.
 */
import type { CompressSettings } from "../../contract/settings.ts";
import type { Codec, CodecId } from "../codec.ts";
import { inspectJpeg, type JpegInfo, refuseImpossibleSize } from "../container/inspect.ts";
import { planMetadata } from "../container/metadata.ts";
import { releasePixels } from "../image/release.ts";
import { planResize, resample } from "../image/resize.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { type MeasurePlanes, measurePlanes } from "../quality/planes.ts";
import { IDENTICAL, type QualityReport } from "../quality/report.ts";
import { codecFor, CODECS } from "../registry.ts";
import { compressImage, decodeUpright, refuseUnsupported } from "./compress.ts";
import { measureOutput } from "./measure.ts";

/** The server accepted the original already: only the codecs' own limit applies here. */
const PREVIEW_MAX_PIXELS = 100_000_000;
/** Crops start on 16-px boundaries, so their blocks and macroblocks are the full image's. */
const ALIGN = 16;

export interface CropRequest {
  /** Wanted top-left corner and size, in the upright image's pixels (clamped and aligned here). */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CropResult {
  bytes: Uint8Array;
  mimeType: string;
  /** The same region of the original (resized as the settings ask), for the split view beside the encode. */
  original: RgbaImage;
  /** The size of the image the crop is from: the original's, or the size the settings resize it to. */
  imageWidth: number;
  imageHeight: number;
  x: number;
  y: number;
  width: number;
  height: number;
  encodeMs: number;
}

/** What the full-size run predicts: the job's `compressedSize` and scores for the same settings. */
export interface FullPrediction {
  size: number;
  keptOriginal: boolean;
  encoder: CodecId | null;
  /** The quality a target chose (null for a fixed quality). */
  chosenQuality: number | null;
  report: QualityReport;
  /** Wall time of the whole prediction, and of its encode (with the metadata splice) and its measurement. */
  ms: number;
  encodeMs: number;
  measureMs: number;
}

export class PreviewSession {
  private planes: MeasurePlanes | null = null;
  /** The original resized for the last resize box asked for, with its pyramid once measured. */
  private resized: { key: string; image: RgbaImage; planes: MeasurePlanes | null } | null = null;

  private constructor(
    readonly bytes: Uint8Array,
    readonly info: JpegInfo,
    /** The original's pixels, upright, as every job step sees them. */
    readonly upright: RgbaImage,
  ) {}

  get width(): number {
    return this.upright.width;
  }
  get height(): number {
    return this.upright.height;
  }
  private get grayscale(): boolean {
    return this.info.colorSpace === "grayscale";
  }

  /** The image these settings work on (the original, or resized to their box), as a job's steps see it. */
  private base(settings: CompressSettings): { image: RgbaImage; resized: boolean } {
    const plan = planResize(this.upright.width, this.upright.height, settings);
    if (!plan) return { image: this.upright, resized: false };
    const { crop } = plan;
    const key = `${plan.width}x${plan.height}:${crop.x},${crop.y},${crop.width},${crop.height}`;
    if (this.resized?.key !== key) {
      this.dropResized();
      this.resized = { key, image: resample(this.upright, plan), planes: null };
    }
    return { image: this.resized.image, resized: true };
  }

  /** The pyramid of the image these settings measure against, made once per image. */
  private planesOf(image: RgbaImage): MeasurePlanes {
    if (image === this.upright) return this.planes ??= measurePlanes(this.upright);
    return this.resized!.planes ??= measurePlanes(image);
  }

  private dropResized(): void {
    if (!this.resized) return;
    this.resized.planes?.pyramid.free();
    releasePixels(this.resized.image);
    this.resized = null;
  }

  /** Inspects and decodes the original once (the same checks and orientation as a job). */
  static async open(bytes: Uint8Array): Promise<PreviewSession> {
    const info = inspectJpeg(bytes);
    refuseUnsupported(info, PREVIEW_MAX_PIXELS);
    refuseImpossibleSize(info, bytes.length);
    return new PreviewSession(bytes, info, await decodeUpright(bytes, info));
  }

  /**
   * The visible region encoded with these settings (the codec a fixed-quality job uses, or `encoder` and
   * `quality` a target chose), for the 1:1 view, with the original's same region beside it. Not measured, no
   * metadata: pixels only.
   */
  async crop(
    settings: CompressSettings,
    wanted: CropRequest,
    chosen?: { encoder: CodecId | null; quality: number | null },
  ): Promise<CropResult> {
    const started = performance.now();
    const { image } = this.base(settings);
    const { x, y, width, height } = alignCrop(wanted, image.width, image.height);
    const region = cropPixels(image, x, y, width, height);
    const codec: Codec = chosen?.encoder ? CODECS[chosen.encoder] : codecFor(settings);
    const quality = chosen?.quality ?? settings.quality;
    const prepared = codec.prepare(region, settings, this.grayscale);
    const bytes = await codec.encode(prepared, settings, quality, {
      grayscale: this.grayscale,
      scoreGoal: settings.target !== null && settings.target.kind !== "size",
      imagePixels: image.width * image.height,
    });
    return {
      bytes,
      mimeType: codec.mimeType,
      original: region,
      imageWidth: image.width,
      imageHeight: image.height,
      x,
      y,
      width,
      height,
      encodeMs: performance.now() - started,
    };
  }

  /**
   * The whole image with these settings, as a job makes it: the same encode, metadata splice and "never
   * bigger" rule, measured against the original's pyramid (computed once and kept). A target runs the job's
   * own search (`compressImage`, which decodes the original again). `onSize` hears the size as soon as the
   * file is made, before it is measured.
   */
  async full(
    settings: CompressSettings,
    onSize: (size: number) => void = () => {},
    signal = new AbortController().signal,
  ): Promise<FullPrediction> {
    const started = performance.now();
    if (settings.target) {
      const result = await compressImage(signal, { bytes: this.bytes, settings, maxPixels: PREVIEW_MAX_PIXELS });
      return {
        size: result.compressedSize,
        keptOriginal: result.keptOriginal,
        encoder: result.encoder,
        chosenQuality: result.chosenQuality,
        report: result.quality,
        ms: performance.now() - started,
        encodeMs: result.timings.encodeMs,
        measureMs: result.timings.measureMs,
      };
    }
    const codec = codecFor(settings);
    const { image, resized } = this.base(settings);
    const prepared = codec.prepare(image, settings, this.grayscale);
    let out: Uint8Array;
    try {
      const encoded = await codec.encode(prepared, settings, settings.quality, {
        grayscale: this.grayscale,
        scoreGoal: false,
      });
      out = codec.carryMetadata(
        encoded,
        planMetadata(this.info, settings.stripMetadata, codec.capabilities.metadata),
      );
    } finally {
      if (prepared !== image) releasePixels(prepared);
    }
    const encodeMs = performance.now() - started;
    // Never bigger, where the pixels are the upload's own (as a job decides).
    const kept = !resized && out.length >= this.bytes.length;
    onSize(kept ? this.bytes.length : out.length);
    if (kept) {
      return {
        size: this.bytes.length,
        keptOriginal: true,
        encoder: null,
        chosenQuality: null,
        report: IDENTICAL,
        ms: performance.now() - started,
        encodeMs,
        measureMs: 0,
      };
    }
    const report = await measureOutput(out, codec, this.planesOf(image));
    return {
      size: out.length,
      keptOriginal: false,
      encoder: codec.id,
      chosenQuality: null,
      report,
      ms: performance.now() - started,
      encodeMs,
      measureMs: performance.now() - started - encodeMs,
    };
  }

  /** Frees the original's pyramid (WASM memory) and pixels. */
  close(): void {
    this.planes?.pyramid.free();
    this.planes = null;
    this.dropResized();
    releasePixels(this.upright);
  }
}

/** The wanted region inside the image, its corner on the 16-px grid, at least one pixel. */
export function alignCrop(wanted: CropRequest, width: number, height: number): CropRequest {
  const w = Math.max(1, Math.min(width, Math.round(wanted.width)));
  const h = Math.max(1, Math.min(height, Math.round(wanted.height)));
  const x = Math.max(0, Math.min(width - w, Math.floor(wanted.x / ALIGN) * ALIGN));
  const y = Math.max(0, Math.min(height - h, Math.floor(wanted.y / ALIGN) * ALIGN));
  return { x, y, width: w, height: h };
}

function cropPixels(image: RgbaImage, x: number, y: number, width: number, height: number): RgbaImage {
  const data = new Uint8ClampedArray(width * height * 4);
  const rowBytes = width * 4;
  for (let row = 0; row < height; row++) {
    const from = ((y + row) * image.width + x) * 4;
    data.set(image.data.subarray(from, from + rowBytes), row * rowBytes);
  }
  return { data, width, height };
}

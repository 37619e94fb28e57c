/** Messages between the live preview and its Web Worker (lib/live-preview.worker.ts). */
import type { CodecId } from "../../../../../contract/settings.ts";
import type { CompressSettings } from "../../../../../contract/settings.ts";
import type { CropRequest, FullPrediction } from "../../../../../codecs/pipeline/preview.ts";

export type { CropRequest, FullPrediction };

/** What a target chose at full size, so the crop shows the same encoder and quality. */
export interface Chosen {
  encoder: CodecId | null;
  quality: number | null;
}

export type WorkerRequest =
  | { type: "open"; bytes: ArrayBuffer }
  | { type: "crop"; gen: number; settings: CompressSettings; region: CropRequest; chosen?: Chosen }
  | { type: "full"; gen: number; settings: CompressSettings };

export type WorkerReply =
  | { type: "opened"; width: number; height: number; ms: number }
  | {
    type: "crop";
    gen: number;
    bytes: ArrayBuffer;
    mimeType: string;
    region: CropRequest;
    /** The original's same region, RGBA (region.width × region.height), resized as the settings ask. */
    original: ArrayBuffer;
    /** The size of the image the region is cut from (the resized size when the settings resize). */
    imageWidth: number;
    imageHeight: number;
    ms: number;
  }
  | { type: "size"; gen: number; size: number }
  | { type: "full"; gen: number; prediction: FullPrediction }
  | { type: "dropped"; gen: number }
  | { type: "error"; gen?: number; message: string };

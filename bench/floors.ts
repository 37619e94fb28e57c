/**
 * Per-encoder floors by bisection: on one photo, the lowest quality (20-100) whose output scores at least
 * a goal. Each quality is encoded as the product's score search encodes it (sequential, 4:2:0 below a goal
 * of 88, MozJPEG with its score-search table preset 2, the photo's ICC profile spliced in) and measured
 * once by the engine's metric; the oracle then steps to the reference tool's floor. `photoFloors` runs one
 * photo; bench/floors-worker.ts runs it on a worker, so two photos go side by side.
 */
import type { Codec } from "../codecs/codec.ts";
import { planMetadata, spliceSegments } from "../codecs/container/metadata.ts";
import { decodeJpegPixels } from "../codecs/jpeg/decode.ts";
import { releasePixels } from "../codecs/image/release.ts";
import { AGREEMENT_MARGIN, AUTO_SCORE_THRESHOLD } from "../codecs/pipeline/targets.ts";
import { type MeasurePlanes, measurePlanes } from "../codecs/quality/planes.ts";
import { compareQuality } from "../codecs/quality/report.ts";
import { CODECS } from "../codecs/registry.ts";
import {
  type ChromaSubsampling,
  type CompressSettings,
  DEFAULT_SETTINGS,
  type Encoder,
  ENCODERS,
} from "../contract/settings.ts";
import { cjpeg } from "./cjpeg.ts";
import { type Photo, pnm, uprightPhoto } from "./pixels.ts";
import { type ReferenceScorer, referenceScorer } from "./reference-metric.ts";
import { onLanes } from "./report.ts";

export const LOWEST_QUALITY = 20;
export const HIGHEST_QUALITY = 100;

export interface Probe {
  quality: number;
  bytes: Uint8Array;
  size: number;
  /** The engine's SSIMULACRA 2 (unclamped, as the product's searches read it). */
  score: number;
}

/** The photo as the floors measure it: its pixels, the original's pyramid, its kept metadata. */
export interface MeasuredPhoto extends Photo {
  planes: MeasurePlanes;
  segments: Uint8Array[];
}

export function measuredPhoto(photo: Photo): MeasuredPhoto {
  return { ...photo, planes: measurePlanes(photo.pixels), segments: planMetadata(photo.info, true).segments };
}

/** The engine's score of a JPEG against the photo. */
export async function engineScore(photo: MeasuredPhoto, jpeg: Uint8Array): Promise<number> {
  const decoded = await decodeJpegPixels(jpeg);
  const planes = measurePlanes(decoded, photo.planes.factor);
  releasePixels(decoded);
  try {
    return compareQuality(photo.planes.pyramid, planes.pyramid).ssimulacra2;
  } finally {
    planes.pyramid.free();
  }
}

/** The lowest quality in [lo, hi] that passes (bisection: passing is monotonic in quality), or null. */
export async function lowestPassing(lo: number, hi: number, passes: (q: number) => Promise<boolean>) {
  let found: number | null = null;
  while (lo <= hi) {
    const q = (lo + hi) >> 1;
    if (await passes(q)) [found, hi] = [q, q - 1];
    else lo = q + 1;
  }
  return found;
}

/** One encoder on one photo: each quality encoded and scored once, whichever goal asks for it. */
export function prober(
  photo: MeasuredPhoto,
  codec: Codec,
  chromaSubsampling: ChromaSubsampling = DEFAULT_SETTINGS.chromaSubsampling,
): (q: number) => Promise<Probe> {
  const settings: CompressSettings = { ...DEFAULT_SETTINGS, encoder: codec.id as Encoder, chromaSubsampling };
  const pixels = codec.prepare(photo.pixels, settings, photo.grayscale);
  const probes = new Map<number, Promise<Probe>>();
  const probe = async (quality: number): Promise<Probe> => {
    const encoded = await codec.encode(pixels, settings, quality, { grayscale: photo.grayscale, scoreGoal: true });
    const bytes = spliceSegments(encoded, photo.segments);
    return { quality, bytes, size: bytes.length, score: await engineScore(photo, bytes) };
  };
  return (q) => {
    if (!probes.has(q)) probes.set(q, probe(q));
    return probes.get(q)!;
  };
}

/** The lowest quality scoring >= goal by the engine's metric (the highest quality when none does). */
export async function engineFloor(probe: (q: number) => Promise<Probe>, goal: number): Promise<Probe> {
  const q = await lowestPassing(LOWEST_QUALITY, HIGHEST_QUALITY, async (q) => (await probe(q)).score >= goal);
  return probe(q ?? HIGHEST_QUALITY);
}

/**
 * The lowest quality the reference tool scores >= goal, stepping one quality at a time from the engine's
 * floor (the two metrics agree within a fraction of a step, so this takes about two runs of the tool).
 */
export async function referenceFloor(
  probe: (q: number) => Promise<Probe>,
  start: number,
  reference: ReferenceScorer,
  goal: number,
): Promise<Probe & { reference: number }> {
  const scores = new Map<number, number>();
  const passes = async (q: number) => {
    const decoded = await decodeJpegPixels((await probe(q)).bytes);
    scores.set(q, await reference.score(decoded));
    releasePixels(decoded);
    return scores.get(q)! >= goal;
  };
  let q = start;
  if (await passes(q)) {
    while (q > LOWEST_QUALITY && (await passes(q - 1))) q--;
  } else {
    while (q < HIGHEST_QUALITY && !(await passes(++q)));
  }
  return { ...await probe(q), reference: scores.get(q)! };
}

/** A floor as reported: the output's quality, size and engine score (its bytes stay behind). */
export type Floor = Omit<Probe, "bytes">;
export type Oracle = Floor & { reference: number | null; engineQuality: number };

export interface FloorsRequest {
  bytes: Uint8Array;
  /** Auto's output for this photo, to score with the reference tool (null: the original was kept). */
  auto: Uint8Array | null;
  /** The reference tool (bench/reference-metric.ts), or null: the engine's metric and its margin instead. */
  tool: string | null;
}

export interface PhotoFloors {
  /** `cjpeg -quality 80 -optimize -sample 2x2` of the upright pixels, and its engine score. */
  cjpeg: { size: number; score: number };
  /** Per encoder, the smallest output scoring >= 80 (by the reference tool when there is one). */
  oracle: Record<Encoder, Oracle>;
  /** Per encoder, the smallest output scoring >= cjpeg's score (the engine's metric on both sides). */
  equal: Record<Encoder, Floor>;
  /** Auto's output scored by the reference tool. */
  autoReference: number | null;
}

const floorOf = ({ quality, size, score }: Probe): Floor => ({ quality, size, score });

/** One photo's reference output and each encoder's floors. */
export async function photoFloors({ bytes, auto, tool }: FloorsRequest): Promise<PhotoFloors> {
  const photo = measuredPhoto(await uprightPhoto(bytes));
  const reference = tool ? await referenceScorer(tool, photo) : null;
  try {
    const reencoded = await cjpeg(pnm(photo.pixels, photo.grayscale), 80, true, "2x2");
    const cjpegScore = await engineScore(photo, reencoded);
    // Without the tool, the engine's metric plus its agreement margin stands in for it.
    const engineGoal = reference ? AUTO_SCORE_THRESHOLD : AUTO_SCORE_THRESHOLD + AGREEMENT_MARGIN;
    const oracle = {} as Record<Encoder, Oracle>, equal = {} as Record<Encoder, Floor>;
    for (const id of ENCODERS) {
      const probe = prober(photo, CODECS[id]);
      equal[id] = floorOf(await engineFloor(probe, cjpegScore));
      let floor = await engineFloor(probe, engineGoal), floorProbe = probe;
      // As auto searches chroma (issue 31): where 4:2:0 reaches 80 at no quality and the source keeps finer
      // chroma, the oracle is full chroma's floor.
      if (floor.score < engineGoal && !photo.grayscale && photo.info.chromaSubsampling !== "4:2:0") {
        const full = prober(photo, CODECS[id], "4:4:4");
        const fullFloor = await engineFloor(full, engineGoal);
        if (fullFloor.score >= engineGoal) [floor, floorProbe] = [fullFloor, full];
      }
      const found = reference ? await referenceFloor(floorProbe, floor.quality, reference, AUTO_SCORE_THRESHOLD) : null;
      oracle[id] = { ...floorOf(found ?? floor), reference: found?.reference ?? null, engineQuality: floor.quality };
    }
    const autoReference = reference && auto ? await reference.score(await decodeJpegPixels(auto)) : null;
    return { cjpeg: { size: reencoded.length, score: cjpegScore }, oracle, equal, autoReference };
  } finally {
    await reference?.close();
    photo.planes.pyramid.free();
    releasePixels(photo.pixels);
  }
}

/** Each photo's floors on two workers (bench/floors-worker.ts), two photos side by side. */
export async function floorsOnWorkers(requests: FloorsRequest[]): Promise<PhotoFloors[]> {
  const workers = [0, 1].map(() => new Worker(new URL("./floors-worker.ts", import.meta.url), { type: "module" }));
  try {
    return await onLanes(requests.length, workers.length, (i, lane) => ask(workers[lane]!, requests[i]!));
  } finally {
    for (const worker of workers) worker.terminate();
  }
}

function ask(worker: Worker, request: FloorsRequest): Promise<PhotoFloors> {
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }: MessageEvent<{ floors?: PhotoFloors; error?: string }>) =>
      data.floors ? resolve(data.floors) : reject(new Error(data.error));
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(event.message));
    };
    worker.postMessage(request);
  });
}

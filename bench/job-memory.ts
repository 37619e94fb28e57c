/**
 * A job's real peak against what the scheduler reserves for it (issue 29): one worker, one job at
 * a time, the process's peak RSS over its idle level (warm worker) against `estimateJobMemory`,
 * for ordinary photos and for the hostile shapes (tests/setup/hostile-jpegs.ts). Runs alone with
 * `deno run -A bench/job-memory.ts`.
 */
import {
  type CodecPool,
  createCodecPool,
  estimateJobMemory,
  jobBytesPerPixel,
  SCORE_BYTES_PER_PIXEL,
  surveyJpeg,
} from "../codecs/mod.ts";
import { type CompressSettings, DEFAULT_SETTINGS } from "../contract/settings.ts";
import { afterSoi, fillerSegments, lateFrame, tinySegments } from "../tests/setup/hostile-jpegs.ts";
import type { CorpusImage } from "./corpus.ts";
import { figure, peakRssMb, resetPeakRss } from "./report.ts";

const rssMb = async () => Number(/VmRSS:\s+(\d+)/.exec(await Deno.readTextFile("/proc/self/status"))?.[1] ?? 0) / 1024;
const MB = 1024 * 1024;

/**
 * The process's peak RSS over its idle level while `job` runs on a fresh worker warmed on `small` (what a recycled
 * worker is when a job arrives); `before` runs first, outside the measure. Returns the growth in MB and what `job` says.
 */
async function peakOverIdle(
  small: CorpusImage,
  job: (pool: CodecPool) => Promise<string>,
  before?: (pool: CodecPool) => Promise<void>,
): Promise<{ growth: number; outcome: string }> {
  const pool = createCodecPool({ size: 1, jobTimeoutMs: 600_000, maxQueue: 10, maxPixels: 100e6 });
  try {
    await pool.compress(small.bytes.slice(), DEFAULT_SETTINGS);
    await before?.(pool);
    const idle = await rssMb();
    await resetPeakRss();
    const outcome = await job(pool);
    return { growth: (await peakRssMb()) - idle, outcome };
  } finally {
    await pool.close();
  }
}

/** One `job_memory_*` line: the peak against the reservation. */
function memoryLine(name: string, growth: number, reserved: number, detail: string): void {
  figure(
    `job_memory_${name}`,
    `${growth.toFixed(0)} MB peak over idle, reserved ${reserved.toFixed(0)} MB`,
    `(${detail}; ratio ${(growth / reserved).toFixed(2)}, target <= 1)`,
  );
}

export async function jobMemoryBench(corpus: CorpusImage[]) {
  const largest = [...corpus].sort((a, b) => b.bytes.length - a.bytes.length)[0]!;
  const midsize = corpus.find((i) => i.megapixels > 10 && i.bytes.length < 9 * MB) ?? largest;
  const small = corpus.reduce((a, b) => (a.megapixels < b.megapixels ? a : b));
  const photos = Deno.env.get("JOB_MEMORY_ALL")
    ? corpus.map((i) => ({ name: `photo_${i.name.slice(0, 3)}`, bytes: i.bytes, strip: true }))
    : [];
  const shapes: { name: string; bytes: Uint8Array; strip: boolean }[] = [
    ...photos,
    { name: `photo_${largest.name.slice(0, 3)}`, bytes: largest.bytes, strip: true },
    { name: `photo_${midsize.name.slice(0, 3)}_keep_metadata`, bytes: midsize.bytes, strip: false },
    { name: "late_frame_9x64KB", bytes: lateFrame(largest.bytes), strip: true },
    { name: "tiny_segments_4000", bytes: tinySegments(small.bytes, 4000), strip: false },
    { name: "tiny_segments_2M_refused", bytes: tinySegments(small.bytes, 2_000_000), strip: false },
    {
      // As much metadata as admission accepts for the photo's pixels, kept in the result.
      name: `photo_${midsize.name.slice(0, 3)}_plus_max_metadata`,
      bytes: afterSoi(
        midsize.bytes,
        ...fillerSegments(
          Math.floor(Math.min(24 * MB - midsize.bytes.length, 2 * midsize.width * midsize.height) / 65_537),
        ),
      ),
      strip: false,
    },
  ];
  for (const shape of shapes) {
    const survey = surveyJpeg(shape.bytes);
    const pixels = survey.frame ? survey.frame.width * survey.frame.height : 0;
    const reserved = estimateJobMemory(pixels, shape.bytes.length) / MB;
    const { growth, outcome } = await peakOverIdle(
      small,
      (pool) =>
        pool.compress(shape.bytes.slice(), { ...DEFAULT_SETTINGS, stripMetadata: shape.strip })
          .then((r) => `${(r.compressedSize / MB).toFixed(1)} MB out`, (e) => `refused: ${e.code}`),
    );
    const file = (shape.bytes.length / MB).toFixed(1);
    memoryLine(shape.name, growth, reserved, `${file} MB file, ${(pixels / 1e6).toFixed(1)} MP, ${outcome}`);
  }
}

/**
 * The kinds of work the server's scheduler reserves for apart (ADR 039), one at a time on a fresh worker: the fixed
 * path (its score deferred), the deferred score, JPEG on auto; each against its own reservation.
 */
export async function jobKindMemoryBench(corpus: CorpusImage[]) {
  const small = corpus.reduce((a, b) => (a.megapixels < b.megapixels ? a : b));
  const bySize = [...corpus].sort((a, b) => a.megapixels - b.megapixels);
  const photos = [bySize[Math.floor(bySize.length / 2)]!, bySize.find((i) => i.megapixels >= 12) ?? bySize.at(-1)!];
  const auto = { ...DEFAULT_SETTINGS, target: { kind: "auto" } } as CompressSettings;
  const kinds = [
    { name: "fixed", perPixel: jobBytesPerPixel(DEFAULT_SETTINGS) },
    { name: "score", perPixel: SCORE_BYTES_PER_PIXEL },
    { name: "auto", perPixel: jobBytesPerPixel(auto) },
  ];
  for (const photo of photos) {
    for (const kind of kinds) {
      let fixed: Uint8Array | null = null;
      const { growth } = await peakOverIdle(small, async (pool) => {
        if (kind.name === "score") await pool.score(photo.bytes.slice(), fixed!.slice());
        else {await pool.compress(photo.bytes.slice(), kind.name === "auto" ? auto : DEFAULT_SETTINGS, {
            deferScore: true,
          });}
        return "";
      }, async (pool) => {
        fixed = (await pool.compress(photo.bytes.slice(), DEFAULT_SETTINGS, { deferScore: true })).bytes;
        // Past the worker's idle release (heaps-between-jobs.ts): what a job after a pause starts from.
        await new Promise((r) => setTimeout(r, 600));
      });
      const reserved = estimateJobMemory(photo.width * photo.height, photo.bytes.length, kind.perPixel) / MB;
      memoryLine(
        `${kind.name}_${photo.name.slice(0, 3)}`,
        growth,
        reserved,
        `${photo.megapixels.toFixed(1)} MP, ${kind.perPixel} B/px`,
      );
    }
  }
}

if (import.meta.main) {
  const { loadCorpus } = await import("./corpus.ts");
  const corpus = await loadCorpus();
  await jobMemoryBench(corpus);
  await jobKindMemoryBench(corpus);
}

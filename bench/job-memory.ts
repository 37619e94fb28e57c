/**
 * A job's real peak against what the scheduler reserves for it (issue 29): one worker, one job at
 * a time, the process's peak RSS over its idle level (warm worker) against `estimateJobMemory`,
 * for ordinary photos and for the hostile shapes (tests/setup/hostile-jpegs.ts). Runs alone with
 * `deno run -A bench/job-memory.ts`.
 */
import { createCodecPool, estimateJobMemory, surveyJpeg } from "../codecs/mod.ts";
import { DEFAULT_SETTINGS } from "../contract/settings.ts";
import { afterSoi, fillerSegments, lateFrame, tinySegments } from "../tests/setup/hostile-jpegs.ts";
import type { CorpusImage } from "./corpus.ts";
import { figure, peakRssMb, resetPeakRss } from "./report.ts";

const rssMb = async () => Number(/VmRSS:\s+(\d+)/.exec(await Deno.readTextFile("/proc/self/status"))?.[1] ?? 0) / 1024;
const MB = 1024 * 1024;

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
    // A fresh worker per shape, warmed on a small photo: what a recycled worker is when the job arrives.
    const pool = createCodecPool({ size: 1, jobTimeoutMs: 600_000, maxQueue: 10, maxPixels: 100e6 });
    try {
      await pool.compress(small.bytes.slice(), DEFAULT_SETTINGS);
      const survey = surveyJpeg(shape.bytes);
      const pixels = survey.frame ? survey.frame.width * survey.frame.height : 0;
      const reserved = estimateJobMemory(pixels, shape.bytes.length) / MB;
      const idle = await rssMb();
      await resetPeakRss();
      const outcome = await pool.compress(shape.bytes.slice(), { ...DEFAULT_SETTINGS, stripMetadata: shape.strip })
        .then((r) => `${(r.compressedSize / MB).toFixed(1)} MB out`, (e) => `refused: ${e.code}`);
      const growth = (await peakRssMb()) - idle;
      figure(
        `job_memory_${shape.name}`,
        `${growth.toFixed(0)} MB peak over idle, reserved ${reserved.toFixed(0)} MB`,
        `(${(shape.bytes.length / MB).toFixed(1)} MB file, ${(pixels / 1e6).toFixed(1)} MP, ${outcome}; ratio ${
          (growth / reserved).toFixed(2)
        }, target <= 1)`,
      );
    } finally {
      await pool.close();
    }
  }
}

if (import.meta.main) {
  const { loadCorpus } = await import("./corpus.ts");
  await jobMemoryBench(await loadCorpus());
}

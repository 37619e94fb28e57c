/**
 * format=auto (issue 30, item 4) on the corpus, at each photo's own size and at 1,280 px wide: the result
 * against JPEG on auto for the same photo (both through the pool, 2 workers, back to back on one lane):
 * bytes, how often it was larger (target: never), which format it chose, and its job time.
 *
 * `deno task bench auto-format` runs this section alone.
 */
import { type CompressResult, createCodecPool } from "../codecs/mod.ts";
import { type CompressSettings, DEFAULT_SETTINGS } from "../contract/settings.ts";
import type { CorpusImage } from "./corpus.ts";
import { figure, onLanes } from "./report.ts";

const JPEG_AUTO: CompressSettings = { ...DEFAULT_SETTINGS, target: { kind: "auto" } };
/** The default allowed formats: AVIF and JPEG; no target, so auto's goal (SSIMULACRA 2 ≥ 80). */
const FORMAT_AUTO: CompressSettings = { ...DEFAULT_SETTINGS, format: "auto", formats: ["avif", "jpeg"], target: null };

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

async function pairs(corpus: CorpusImage[], maxWidth: number | null) {
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 900_000, maxQueue: 100, maxPixels: 100e6 });
  try {
    const at = (s: CompressSettings) => ({ ...s, maxWidth });
    return await onLanes(corpus.length, 2, async (i) => ({
      jpeg: await pool.compress(corpus[i]!.bytes.slice(), at(JPEG_AUTO)),
      auto: await pool.compress(corpus[i]!.bytes.slice(), at(FORMAT_AUTO)),
    }));
  } finally {
    await pool.close();
  }
}

function report(tag: string, corpus: CorpusImage[], results: { jpeg: CompressResult; auto: CompressResult }[]) {
  for (const [i, image] of corpus.entries()) {
    const { jpeg, auto } = results[i]!;
    const c = auto.formatChoice;
    console.log(
      `  ${tag} ${image.name}: jpeg auto ${jpeg.compressedSize} B | format=auto ${auto.mimeType} ` +
        `${auto.compressedSize} B (${(100 * auto.compressedSize / jpeg.compressedSize).toFixed(1)}%) score ` +
        `${auto.quality!.ssimulacra2.toFixed(2)}; against ${c?.against ?? "-"} ${c?.againstBytes ?? "-"} B ` +
        `${c?.measured ? "measured" : "predicted"}; ${(auto.timings.totalMs / 1000).toFixed(1)} s ` +
        `(jpeg ${(jpeg.timings.totalMs / 1000).toFixed(1)} s)`,
    );
  }
  const picks = new Map<string, number>();
  for (const { auto } of results) picks.set(auto.mimeType, (picks.get(auto.mimeType) ?? 0) + 1);
  figure(
    `auto_format_bytes_vs_jpeg_auto_${tag}`,
    (100 * sum(results.map((r) => r.auto.compressedSize))) / sum(results.map((r) => r.jpeg.compressedSize)),
    "% (AVIF or JPEG, the smaller at ≥ 80)",
  );
  figure(
    `auto_format_larger_than_jpeg_auto_${tag}`,
    `${results.filter((r) => r.auto.compressedSize > r.jpeg.compressedSize).length}/${results.length}`,
    "(target 0)",
  );
  figure(`auto_format_picks_${tag}`, [...picks].map(([type, n]) => `${type.slice(6)} ${n}`).join(", "));
  figure(
    `auto_format_score_min_${tag}`,
    Math.min(...results.map((r) => r.auto.quality!.ssimulacra2)),
    "(target >= 80)",
  );
  figure(
    `auto_format_time_vs_jpeg_auto_${tag}`,
    sum(results.map((r) => r.auto.timings.totalMs)) / sum(results.map((r) => r.jpeg.timings.totalMs)),
    "x (job time in the workers)",
  );
}

export async function autoFormatBench(corpus: CorpusImage[]): Promise<void> {
  report("own_size", corpus, await pairs(corpus, null));
  report("1280", corpus, await pairs(corpus, 1280));
}

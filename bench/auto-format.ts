/**
 * Formats against JPEG on auto (issue 30, items 3-4), through the pool (2 workers, one photo's runs back to back
 * on one lane): at each photo's own size and at 2,560 and 1,280 px wide, format=auto (AVIF or JPEG); at 2,560
 * and 1,280 px also AVIF and WebP on auto (SSIMULACRA 2 ≥ 80). Bytes as % of JPEG auto's, how often format=auto
 * was larger (target: never), which format it chose, the lowest score and the job time.
 *
 * `deno task bench auto-format` runs this section alone.
 */
import { type CompressResult, createCodecPool } from "../codecs/mod.ts";
import { type CompressSettings, DEFAULT_SETTINGS } from "../contract/settings.ts";
import type { CorpusImage } from "./corpus.ts";
import { figure, onLanes } from "./report.ts";

const JPEG_AUTO: CompressSettings = { ...DEFAULT_SETTINGS, target: { kind: "auto" } };
const AVIF_AUTO: CompressSettings = { ...JPEG_AUTO, format: "avif" };
const WEBP_AUTO: CompressSettings = { ...JPEG_AUTO, format: "webp" };
/** The default allowed formats: AVIF and JPEG; no target, so auto's goal (SSIMULACRA 2 ≥ 80). */
const FORMAT_AUTO: CompressSettings = { ...DEFAULT_SETTINGS, format: "auto", formats: ["avif", "jpeg"], target: null };

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

type Runs = { jpeg: CompressResult; auto: CompressResult; avif?: CompressResult; webp?: CompressResult };

async function runs(corpus: CorpusImage[], maxWidth: number | null, everyFormat: boolean): Promise<Runs[]> {
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 900_000, maxQueue: 100, maxPixels: 100e6 });
  try {
    const at = (s: CompressSettings) => ({ ...s, maxWidth });
    return await onLanes(corpus.length, 2, async (i) => {
      const run = (s: CompressSettings) => pool.compress(corpus[i]!.bytes.slice(), at(s));
      const result: Runs = { jpeg: await run(JPEG_AUTO), auto: await run(FORMAT_AUTO) };
      if (everyFormat) Object.assign(result, { avif: await run(AVIF_AUTO), webp: await run(WEBP_AUTO) });
      return result;
    });
  } finally {
    await pool.close();
  }
}

function report(tag: string, corpus: CorpusImage[], results: Runs[]) {
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
  for (const format of ["avif", "webp"] as const) {
    const of = results.map((r) => r[format]).filter((r) => r !== undefined);
    if (of.length === 0) continue;
    figure(
      `${format}_auto_bytes_vs_jpeg_auto_${tag}`,
      (100 * sum(of.map((r) => r.compressedSize))) / sum(results.map((r) => r.jpeg.compressedSize)),
      `% (scores ${Math.min(...of.map((r) => r.quality!.ssimulacra2)).toFixed(2)}-${
        Math.max(...of.map((r) => r.quality!.ssimulacra2)).toFixed(2)
      }${format === "avif" ? "; target <= 70 at 1280" : ""})`,
    );
  }
  figure(
    `auto_format_time_vs_jpeg_auto_${tag}`,
    sum(results.map((r) => r.auto.timings.totalMs)) / sum(results.map((r) => r.jpeg.timings.totalMs)),
    "x (job time in the workers)",
  );
}

export async function autoFormatBench(corpus: CorpusImage[]): Promise<void> {
  report("own_size", corpus, await runs(corpus, null, false));
  for (const width of [2560, 1280]) report(String(width), corpus, await runs(corpus, width, true));
}

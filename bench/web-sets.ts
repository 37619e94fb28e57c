/**
 * Web sets (issue 30, item 5): one 10-16 MP photo's default set (4 widths × AVIF + JPEG, auto) against the
 * fixed JPEG path on the same photo, through a pool of 2 workers, with every file's score; and with
 * `--batch`, a fresh server's peak RSS through a batch of 20 sets on 2 workers (bench/http.ts
 * `webSetBatchMemory`); alone, also the set through the HTTP API (`webSetAloneHttp`). Runs alone with
 * `deno run -A bench/web-sets.ts [--batch]`.
 */
import { createCodecPool } from "../codecs/mod.ts";
import { DEFAULT_SAVED_SETTINGS, DEFAULT_SETTINGS } from "../contract/settings.ts";
import { DEFAULT_SET_WIDTHS } from "../contract/web-sets.ts";
import type { CorpusImage } from "./corpus.ts";
import { figure } from "./report.ts";
import { asPortrait } from "./portrait.ts";

/**
 * The first 10-16 MP photo, as the target says (public A18, validation V22); a set without one (a
 * `BENCH_PHOTOS` selection) takes its largest photo up to 16 MP, not whichever comes last.
 */
export const setPhoto = (corpus: CorpusImage[]) =>
  corpus.find((i) => i.megapixels >= 10 && i.megapixels <= 16) ??
    corpus.filter((i) => i.megapixels <= 16).reduce((a, b) => (b.megapixels > a.megapixels ? b : a), corpus[0]!);

export async function webSetBench(corpus: CorpusImage[]) {
  const photo = setPhoto(corpus);
  // As a user waits for one photo: the product's pool of 2 workers, the fixed job on one of them, the set alone
  // (the scheduler then grants it both workers: ADR 038), and the same set held to one worker.
  const pool = createCodecPool({ size: 2, jobTimeoutMs: 600_000, maxQueue: 8 });
  const timed = async <T>(run: () => Promise<T>) => {
    const t = performance.now();
    return { result: await run(), ms: performance.now() - t };
  };
  const setSettings = { ...DEFAULT_SAVED_SETTINGS, widths: [...DEFAULT_SET_WIDTHS], target: { kind: "auto" as const } };
  try {
    const fixedJob = () => pool.compress(photo.bytes.slice(), DEFAULT_SETTINGS, { deferScore: true });
    await Promise.all([fixedJob(), fixedJob()]); // both workers warm
    // The faster of two runs, as the HTTP line takes it: one run moved by a third between runs on this machine.
    const fixed = Math.min((await timed(fixedJob)).ms, (await timed(fixedJob)).ms);
    const { result: set, ms } = await timed(() => pool.compress(photo.bytes.slice(), setSettings, { lanes: 2 }));
    const oneWorker = (await timed(() => pool.compress(photo.bytes.slice(), setSettings, { lanes: 1 }))).ms;
    const files = set.set ?? [];
    figure(
      "web_set_default_vs_fixed_jpeg",
      `${(ms / fixed).toFixed(1)}x`,
      `(${(ms / 1000).toFixed(1)} s against ${(fixed / 1000).toFixed(2)} s, ${photo.name} ${
        photo.megapixels.toFixed(1)
      } MP, ${files.length} files, the set alone on 2 workers; target <= 12x)`,
    );
    figure(
      "web_set_default_vs_fixed_jpeg_one_worker",
      `${(oneWorker / fixed).toFixed(1)}x`,
      `(${(oneWorker / 1000).toFixed(1)} s: the same set on one worker, as in a batch)`,
    );
    figure(
      "web_set_default_scores",
      files.map((f) => `${f.width}${f.format === "avif" ? "a" : "j"} ${f.score.toFixed(1)}`).join(", "),
      "(SSIMULACRA 2 against each width's resized original; every one 80-83)",
    );
    const byFormat = (format: string) =>
      files.filter((f) => f.format === format).reduce((n, f) => n + f.bytes.length, 0);
    figure("web_set_avif_bytes_pct_of_jpeg", (100 * byFormat("avif")) / byFormat("jpeg"), "% (same widths, both auto)");

    // The same photo as a phone's portrait, against its own fixed job (which turns it upright too).
    const portrait = asPortrait(photo.bytes);
    const fixedPortraitJob = () => pool.compress(portrait.slice(), DEFAULT_SETTINGS, { deferScore: true });
    await fixedPortraitJob();
    const fixedPortrait = Math.min((await timed(fixedPortraitJob)).ms, (await timed(fixedPortraitJob)).ms);
    const upright = await timed(() => pool.compress(portrait.slice(), setSettings, { lanes: 2 }));
    const scores = (upright.result.set ?? []).map((f) => f.score);
    figure(
      "web_set_portrait_vs_fixed_jpeg",
      `${(upright.ms / fixedPortrait).toFixed(1)}x`,
      `(${(upright.ms / 1000).toFixed(1)} s against ${(fixedPortrait / 1000).toFixed(2)} s, the same photo with EXIF ` +
        `orientation 6: ${upright.result.width}x${upright.result.height} upright, ${scores.length} files scoring ` +
        `${Math.min(...scores).toFixed(1)}-${
          Math.max(...scores).toFixed(1)
        }, the set alone on 2 workers; target <= 12x)`,
    );
  } finally {
    await pool.close();
  }
}

if (import.meta.main) {
  const { loadCorpus } = await import("./corpus.ts");
  const corpus = await loadCorpus();
  if (Deno.args.includes("--batch")) {
    const { webSetBatchMemory } = await import("./http.ts");
    await webSetBatchMemory(corpus, 2);
  } else {
    await webSetBench(corpus);
    const { webSetAloneHttp } = await import("./http.ts");
    await webSetAloneHttp(setPhoto(corpus), 2);
  }
}

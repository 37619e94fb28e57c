/**
 * Web sets (issue 30, item 5): one 10-16 MP photo's default set (4 widths × AVIF + JPEG, auto) against the
 * fixed JPEG path on the same photo, in this process on one thread, with every file's score; and with
 * `--batch`, a fresh server's peak RSS through a batch of 20 sets on 2 workers (bench/http.ts
 * `webSetBatchMemory`). Runs alone with `deno run -A bench/web-sets.ts [--batch]`.
 */
import { compressImage } from "../codecs/pipeline/compress.ts";
import { compressJob } from "../codecs/pipeline/web-set.ts";
import { DEFAULT_SAVED_SETTINGS, DEFAULT_SETTINGS } from "../contract/settings.ts";
import { DEFAULT_SET_WIDTHS } from "../contract/web-sets.ts";
import type { CorpusImage } from "./corpus.ts";
import { figure } from "./report.ts";

const signal = new AbortController().signal;

export async function webSetBench(corpus: CorpusImage[]) {
  // A 10-16 MP photo, as the target says; a set without one (the validation set's largest is 9.2 MP)
  // takes its largest photo up to 16 MP, not whichever comes last.
  const photo = corpus.find((i) => i.megapixels >= 10 && i.megapixels <= 16) ??
    corpus.filter((i) => i.megapixels <= 16).reduce((a, b) => (b.megapixels > a.megapixels ? b : a), corpus[0]!);
  const input = { bytes: photo.bytes, maxPixels: 100e6 };
  await compressImage(signal, { ...input, settings: DEFAULT_SETTINGS, deferScore: true }); // warm the modules
  let t = performance.now();
  await compressImage(signal, { ...input, settings: DEFAULT_SETTINGS, deferScore: true });
  const fixed = performance.now() - t;
  t = performance.now();
  const set = await compressJob(signal, {
    ...input,
    settings: { ...DEFAULT_SAVED_SETTINGS, widths: [...DEFAULT_SET_WIDTHS], target: { kind: "auto" } },
  });
  const seconds = (performance.now() - t) / 1000;
  const files = set.set ?? [];
  figure(
    "web_set_default_vs_fixed_jpeg",
    `${(seconds * 1000 / fixed).toFixed(1)}x`,
    `(${seconds.toFixed(1)} s against ${(fixed / 1000).toFixed(2)} s, ${photo.name} ${
      photo.megapixels.toFixed(1)
    } MP, ` +
      `${files.length} files; target <= 12x)`,
  );
  figure(
    "web_set_default_scores",
    files.map((f) => `${f.width}${f.format === "avif" ? "a" : "j"} ${f.score.toFixed(1)}`).join(", "),
    "(SSIMULACRA 2 against each width's resized original; every one 80-83)",
  );
  const byFormat = (format: string) => files.filter((f) => f.format === format).reduce((n, f) => n + f.bytes.length, 0);
  figure("web_set_avif_bytes_pct_of_jpeg", (100 * byFormat("avif")) / byFormat("jpeg"), "% (same widths, both auto)");
}

if (import.meta.main) {
  const { loadCorpus } = await import("./corpus.ts");
  const corpus = await loadCorpus();
  if (Deno.args.includes("--batch")) {
    const { webSetBatchMemory } = await import("./http.ts");
    await webSetBatchMemory(corpus, 2);
  } else {
    await webSetBench(corpus);
  }
}

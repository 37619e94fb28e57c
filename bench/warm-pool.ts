import { type CodecPool, type CodecPoolOptions, createCodecPool } from "../codecs/mod.ts";
import { DEFAULT_SETTINGS } from "../contract/settings.ts";
import type { CorpusImage } from "./corpus.ts";

/**
 * A pool as the server's is when an upload arrives: its workers started and the codecs compiled at boot. One
 * small job per worker, side by side, before the clock starts: a pool made just before its timed run spent about
 * 1.4 s starting its workers (their module graphs, the host's compile), the same for 1 worker or 2, which took
 * the fixed path's 2-worker speedup from about 1.8 to 1.6 on the public corpus (7 Dec 2026).
 */
export async function warmPool(options: CodecPoolOptions, corpus: CorpusImage[]): Promise<CodecPool> {
  const pool = createCodecPool(options);
  const smallest = corpus.reduce((a, b) => (b.megapixels < a.megapixels ? b : a));
  await Promise.all(
    Array.from(
      { length: options.size },
      () => pool.compress(smallest.bytes.slice(), DEFAULT_SETTINGS, { deferScore: true }),
    ),
  );
  return pool;
}

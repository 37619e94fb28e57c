/** Loads the public JPEG corpus (building it into .corpus/ when missing). Reusable by HTTP benches. */
export interface CorpusImage {
  name: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  megapixels: number;
}

const REPO = new URL("../", import.meta.url);
/**
 * `BENCH_SET=validation` runs on the validation set (scripts/make-validation-set.sh: photos the public corpus
 * does not use, on which nothing is tuned) instead of the public corpus.
 */
const VALIDATION = Deno.env.get("BENCH_SET") === "validation";
/** The public corpus's folder: the metric's reference pairs are made from it, whichever set the bench runs on. */
export const PUBLIC_CORPUS_DIR = new URL(".corpus/", REPO);
const DEFAULT_DIR = VALIDATION ? new URL(".validation/", REPO) : PUBLIC_CORPUS_DIR;

export async function ensureCorpus(dir = DEFAULT_DIR): Promise<URL> {
  const script = dir.href === PUBLIC_CORPUS_DIR.href || !VALIDATION
    ? new URL("../shared/corpus/make-corpus.sh", REPO)
    : new URL("scripts/make-validation-set.sh", REPO);
  const images = new URL("A/", dir);
  try {
    await Deno.stat(images);
    return images;
  } catch {
    const build = new Deno.Command("sh", {
      args: [script.pathname, dir.pathname],
      stdout: "null",
      stderr: "inherit",
    });
    if (!(await build.output()).success) throw new Error(`Cannot build the corpus with ${script.pathname}`);
    return images;
  }
}

/**
 * `BENCH_PHOTOS` limits a run to some photos: comma-separated name prefixes (`A01,A08,A13`), or a count
 * (`4`: the first four). Unset: the whole corpus.
 */
function selected(names: string[]): string[] {
  const only = Deno.env.get("BENCH_PHOTOS")?.trim();
  if (!only) return names;
  if (/^\d+$/.test(only)) return names.slice(0, Number(only));
  const prefixes = only.split(",").map((p) => p.trim());
  return names.filter((name) => prefixes.some((p) => name.startsWith(p)));
}

export async function loadCorpus(dir?: URL): Promise<CorpusImage[]> {
  const images = await ensureCorpus(dir);
  const manifestUrl = new URL("../manifest.tsv", images);
  const manifest = await Deno.readTextFile(manifestUrl);
  const rows = manifest.trim().split("\n").slice(1).map((line) => line.split("\t"));
  // Two builds into one folder at once (a test building the corpus while one is built by hand) each append every
  // row: the bench would then time some photos twice.
  const twice = rows.map(([, name]) => name).find((name, i, all) => all.indexOf(name) !== i);
  if (twice) throw new Error(`${manifestUrl.pathname} lists ${twice} twice: delete the folder`);
  const names = selected(rows.map(([, name]) => name ?? ""));
  const out: CorpusImage[] = [];
  for (const [, name, , size] of rows) {
    if (!name || !size || !names.includes(name)) continue;
    const [width, height] = size.split("x").map(Number) as [number, number];
    out.push({
      name,
      bytes: await Deno.readFile(new URL(name, images)),
      width,
      height,
      megapixels: (width * height) / 1e6,
    });
  }
  return out;
}

/** Loads the public JPEG corpus (building it into .corpus/ when missing). Reusable by HTTP benches. */
export interface CorpusImage {
  name: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  megapixels: number;
}

const REPO = new URL("../", import.meta.url);
const BUILD_SCRIPT = new URL("../shared/corpus/make-corpus.sh", REPO);

export async function ensureCorpus(dir = new URL(".corpus/", REPO)): Promise<URL> {
  const images = new URL("A/", dir);
  try {
    await Deno.stat(images);
    return images;
  } catch {
    const build = new Deno.Command("sh", {
      args: [BUILD_SCRIPT.pathname, dir.pathname],
      stdout: "null",
      stderr: "inherit",
    });
    if (!(await build.output()).success) throw new Error(`Cannot build the corpus with ${BUILD_SCRIPT.pathname}`);
    return images;
  }
}

export async function loadCorpus(dir?: URL): Promise<CorpusImage[]> {
  const images = await ensureCorpus(dir);
  const manifest = await Deno.readTextFile(new URL("../manifest.tsv", images));
  const rows = manifest.trim().split("\n").slice(1).map((line) => line.split("\t"));
  const out: CorpusImage[] = [];
  for (const [, name, , size] of rows) {
    if (!name || !size) continue;
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

/**
 * The SSIMULACRA 2 reference pairs: 12 public-corpus photos × 7 distortions built by
 * ../shared/quality/make-reference.sh (Debian's cjpeg/djpeg and cwebp/dwebp), with the
 * reference tool's scores in ../shared/quality/reference-scores.tsv. Used by the metric's
 * test and by the bench.
 */
import { decodeJpegPixels } from "../codecs/jpeg/decode.ts";
import type { RgbaPixels } from "../codecs/quality/ssimulacra2.ts";
import { ensureCorpus, PUBLIC_CORPUS_DIR } from "./corpus.ts";

const REPO = new URL("../", import.meta.url);
const SHARED = new URL("../shared/quality/", REPO);
const VARIANTS = new URL(".corpus/quality-variants/", REPO);

export interface ReferencePair {
  image: string;
  variant: string;
  reference: number;
  originalPath: string;
  distortedPath: string;
}

/** The table's pairs, building the corpus and the distorted variants when missing (about 30 s). */
export async function referencePairs(): Promise<ReferencePair[]> {
  const corpus = await ensureCorpus(PUBLIC_CORPUS_DIR);
  const table = await Deno.readTextFile(new URL("reference-scores.tsv", SHARED));
  const rows = table.trim().split("\n").slice(1).map((line) => line.split("\t"));
  const pairs = rows.map(([image, variant, score]) => ({
    image: image!,
    variant: variant!,
    reference: Number(score),
    originalPath: new URL(`${image}.jpg`, corpus).pathname,
    distortedPath: new URL(`${image}.${variant}.${variant!.startsWith("webp") ? "png" : "jpg"}`, VARIANTS).pathname,
  }));
  const missing = [];
  for (const pair of pairs) {
    try {
      await Deno.stat(pair.distortedPath);
    } catch {
      missing.push(pair.distortedPath);
    }
  }
  if (missing.length) {
    const build = new Deno.Command("sh", {
      args: [new URL("make-reference.sh", SHARED).pathname, corpus.pathname, VARIANTS.pathname],
      stdout: "null",
      stderr: "inherit",
    });
    if (!(await build.output()).success) {
      throw new Error(
        "Cannot build the SSIMULACRA 2 reference variants (needs cjpeg and cwebp: apt-get install libjpeg-turbo-progs webp)",
      );
    }
  }
  return pairs;
}

export async function readImage(path: string): Promise<RgbaPixels> {
  const bytes = await Deno.readFile(path);
  return path.endsWith(".png") ? await decodePng(bytes) : await decodeJpegPixels(bytes);
}

/** A minimal PNG reader for dwebp's output: 8-bit grey, RGB or RGBA, not interlaced. */
export async function decodePng(bytes: Uint8Array): Promise<RgbaPixels> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let width = 0, height = 0, colorType = 0;
  const idat: Uint8Array<ArrayBuffer>[] = [];
  for (let p = 8; p < bytes.length;) {
    const length = view.getUint32(p);
    const type = String.fromCharCode(...bytes.subarray(p + 4, p + 8));
    const data = bytes.subarray(p + 8, p + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(p + 8);
      height = view.getUint32(p + 12);
      colorType = data[9]!;
      if (data[8] !== 8 || data[12] !== 0) throw new Error("Only 8-bit, non-interlaced PNGs are read");
    } else if (type === "IDAT") idat.push(data.slice());
    else if (type === "IEND") break;
    p += 12 + length;
  }
  const channels = ({ 0: 1, 2: 3, 6: 4 } as Record<number, number>)[colorType];
  if (!channels) throw new Error(`PNG colour type ${colorType} is not read`);
  const raw = new Uint8Array(
    await new Response(new Blob(idat).stream().pipeThrough(new DecompressionStream("deflate"))).arrayBuffer(),
  );
  const stride = width * channels;
  const out = new Uint8ClampedArray(width * height * 4);
  let prev = new Uint8Array(stride), line = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1), filter = raw[at]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[at + 1 + i]!, a = i >= channels ? line[i - channels]! : 0, b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      let v = x;
      if (filter === 1) v = x + a;
      else if (filter === 2) v = x + b;
      else if (filter === 3) v = x + ((a + b) >> 1);
      else if (filter === 4) {
        const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
        v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      line[i] = v;
    }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4, s = x * channels;
      out[o] = line[s]!;
      out[o + 1] = line[channels >= 3 ? s + 1 : s]!;
      out[o + 2] = line[channels >= 3 ? s + 2 : s]!;
      out[o + 3] = channels === 4 ? line[s + 3]! : 255;
    }
    [prev, line] = [line, prev];
  }
  return { data: out, width, height };
}

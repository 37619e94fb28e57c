/**
 * JPEG XL, losslessly (issue 32), on the corpus, one thread, the same files side by side with Debian's native
 * cjxl/djxl 0.7 (`--num_threads 0`):
 *
 * - originals: total saving, every file restored byte-identical (ours, and djxl on our file), encode and decode
 *   ms per megapixel against native, and the largest ~12 MP photo's transcode time as a multiple of cjxl's;
 * - our JPEG auto outputs (in process) transcoded: their saving;
 * - effort 1, 7 and 9 on three photos: bytes and time;
 * - the transcoder's memory per megapixel (a fresh instance per photo);
 * - with `--batch`: a fresh server's peak RSS through a batch of 20 archives on 2 workers (bench/http.ts).
 *
 * `deno task bench jxl` runs this section alone.
 */
import { compressImage } from "../codecs/pipeline/compress.ts";
import { jxlModule, loadJxlTranscoder } from "../codecs/jxl/transcode.ts";
import { DEFAULT_SETTINGS } from "../contract/settings.ts";
import type { CorpusImage } from "./corpus.ts";
import { figure } from "./report.ts";

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Runs a native tool on files in `dir`; its wall time in ms (null when the tool is missing). */
async function native(tool: string, args: string[]): Promise<number | null> {
  const t = performance.now();
  const out = await new Deno.Command(tool, {
    args: [...args, "--num_threads=0", "--quiet"],
    stdout: "null",
    stderr: "piped",
  })
    .output().catch(() => null);
  if (!out?.success) return null;
  return performance.now() - t;
}

export async function jxlBench(corpus: CorpusImage[]): Promise<void> {
  const transcoder = loadJxlTranscoder(jxlModule());
  transcoder.jpegToJxl(corpus[0]!.bytes); // instantiate and warm, untimed
  const dir = await Deno.makeTempDir({ prefix: "bench-jxl-" });
  const ms = { encode: 0, decode: 0, cjxl: 0, djxl: 0 };
  let nativeOk = true, identical = 0, nativeIdentical = 0, jxlBytes = 0, peakPerMp = 0;
  const perPhoto: { image: CorpusImage; encode: number; cjxl: number | null }[] = [];
  try {
    for (const image of corpus) {
      transcoder.reset();
      let t = performance.now();
      const jxl = transcoder.jpegToJxl(image.bytes);
      const encode = performance.now() - t;
      peakPerMp = Math.max(peakPerMp, transcoder.memoryBytes() / image.megapixels);
      t = performance.now();
      const back = transcoder.jxlToJpeg(jxl);
      const decode = performance.now() - t;
      if (equal(back, image.bytes)) identical++;
      jxlBytes += jxl.length;
      ms.encode += encode;
      ms.decode += decode;
      await Deno.writeFile(`${dir}/in.jpg`, image.bytes);
      await Deno.writeFile(`${dir}/ours.jxl`, jxl);
      const cjxl = await native("cjxl", [`${dir}/in.jpg`, `${dir}/native.jxl`]);
      const djxl = await native("djxl", [`${dir}/ours.jxl`, `${dir}/back.jpg`]);
      if (cjxl === null || djxl === null) nativeOk = false;
      else {
        ms.cjxl += cjxl;
        ms.djxl += djxl;
        if (equal(await Deno.readFile(`${dir}/back.jpg`), image.bytes)) nativeIdentical++;
      }
      perPhoto.push({ image, encode, cjxl });
      console.log(
        `  ${image.name}: ${image.bytes.length} → ${jxl.length} B (${
          (100 * (jxl.length / image.bytes.length - 1)).toFixed(1)
        }%), ` +
          `encode ${encode.toFixed(0)} ms (cjxl ${cjxl?.toFixed(0) ?? "-"}), decode ${decode.toFixed(0)} ms (djxl ${
            djxl?.toFixed(0) ?? "-"
          })`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const inputBytes = sum(corpus.map((i) => i.bytes.length));
  const megapixels = sum(corpus.map((i) => i.megapixels));
  figure("jxl_originals_saving", 100 * (1 - jxlBytes / inputBytes), `% (${corpus.length} files; target >= 20)`);
  figure("jxl_restored_identical", `${identical}/${corpus.length}`, "(ours)");
  if (nativeOk) figure("jxl_djxl_restores_ours_identical", `${nativeIdentical}/${corpus.length}`, "(Debian djxl 0.7)");
  figure("jxl_encode_ms_per_mp", ms.encode / megapixels, "ms/MP (effort 7, one thread)");
  figure("jxl_decode_ms_per_mp", ms.decode / megapixels, "ms/MP");
  if (nativeOk) {
    figure("jxl_encode_vs_native_cjxl", ms.encode / ms.cjxl, "x (cjxl 0.7, one thread, process start included)");
    figure("jxl_decode_vs_native_djxl", ms.decode / ms.djxl, "x");
    const twelve = perPhoto.filter((p) => p.image.megapixels >= 10 && p.image.megapixels <= 14 && p.cjxl);
    if (twelve.length) {
      const p = twelve[0]!;
      figure(
        "jxl_12mp_transcode_vs_cjxl",
        p.encode / p.cjxl!,
        `x (${p.image.name}, ${p.image.megapixels.toFixed(1)} MP; target <= 3)`,
      );
    }
  }
  figure("jxl_transcoder_memory_per_mp", peakPerMp / 1e6, "MB/MP (WASM memory after one encode, fresh instance)");

  // Our own JPEG auto results, losslessly.
  let autoJpeg = 0, autoJxl = 0;
  for (const image of corpus) {
    const r = await compressImage(new AbortController().signal, {
      bytes: image.bytes,
      settings: { ...DEFAULT_SETTINGS, target: { kind: "auto" } },
      maxPixels: 100e6,
    });
    transcoder.reset();
    autoJpeg += r.compressedSize;
    autoJxl += transcoder.jpegToJxl(r.bytes).length;
  }
  figure("jxl_auto_outputs_saving", 100 * (1 - autoJxl / autoJpeg), "% (our JPEG auto results; target >= 18)");

  // What each effort costs, on three photos.
  const sample = corpus.slice(0, 3);
  for (const effort of [1, 7, 9]) {
    transcoder.reset();
    const t = performance.now();
    const bytes = sum(sample.map((i) => transcoder.jpegToJxl(i.bytes, effort).length));
    figure(
      `jxl_effort_${effort}`,
      `${(100 * (1 - bytes / sum(sample.map((i) => i.bytes.length)))).toFixed(1)}% smaller`,
      `in ${((performance.now() - t) / sum(sample.map((i) => i.megapixels))).toFixed(0)} ms/MP (${
        sample.map((i) => i.name.slice(0, 3)).join(", ")
      })`,
    );
  }
}

if (import.meta.main) {
  const { loadCorpus } = await import("./corpus.ts");
  const corpus = await loadCorpus();
  if (Deno.args.includes("--batch")) {
    const { archiveBatchMemory } = await import("./http.ts");
    await archiveBatchMemory(corpus, 2);
  } else {
    await jxlBench(corpus);
  }
}

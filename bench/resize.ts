/**
 * Resize (issue 30, item 2): our Lanczos3 in linear light against native libvips (sharp, Lanczos3 in
 * linear light too: `pipelineColorspace("scrgb")`) on the same decoded pixels, per width of a web set,
 * one thread each. Runs alone with `deno run -A bench/resize.ts`.
 */
import sharp from "sharp";
import { planResize, resample } from "../codecs/image/resize.ts";
import { decodeJpegPixels } from "../codecs/jpeg/decode.ts";
import type { CorpusImage } from "./corpus.ts";
import { figure, median } from "./report.ts";

const WIDTHS = [2560, 1920, 1280, 640];

export async function resizeBench(corpus: CorpusImage[]) {
  sharp.concurrency(1);
  const photos = corpus.filter((i) => i.megapixels >= 8);
  const ours: Record<number, number[]> = {}, native: Record<number, number[]> = {};
  for (const photo of photos) {
    const image = await decodeJpegPixels(photo.bytes);
    const raw = sharp(Buffer.from(image.data.buffer), {
      raw: { width: image.width, height: image.height, channels: 4 },
    });
    for (const width of WIDTHS) {
      const plan = planResize(image.width, image.height, { maxWidth: width, maxHeight: null, fit: "inside" });
      if (!plan) continue;
      let t = performance.now();
      resample(image, plan);
      (ours[width] ??= []).push((performance.now() - t) / photo.megapixels);
      t = performance.now();
      await raw.clone().pipelineColorspace("scrgb").resize(plan.width, plan.height, { kernel: "lanczos3" })
        .toColorspace("srgb").raw().toBuffer();
      (native[width] ??= []).push((performance.now() - t) / photo.megapixels);
    }
  }
  for (const width of WIDTHS) {
    if (!ours[width]) continue;
    const a = median(ours[width]!), b = median(native[width]!);
    figure(
      `resize_to_${width}_ms_per_source_mp`,
      `${a.toFixed(1)} ours, ${b.toFixed(1)} libvips`,
      `(${(a / b).toFixed(2)}x native; ${ours[width]!.length} photos of 8 MP or more, linear light)`,
    );
  }
}

if (import.meta.main) {
  const { loadCorpus } = await import("./corpus.ts");
  await resizeBench(await loadCorpus());
}

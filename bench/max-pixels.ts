/**
 * Measures the largest image the WASM codecs handle: a synthetic W×H photo-like
 * gradient is encoded, then pushed through the full pipeline at the heaviest
 * settings (4:4:4, progressive, quality mode). Usage: deno run -A bench/max-pixels.ts 10000 10000
 */
import { DEFAULT_SETTINGS } from "../contract/settings.ts";
import { encodeJpegPixels } from "../codecs/jpeg/encode.ts";
import { mozJpegOptions } from "../codecs/jpeg/options.ts";
import { compressImage } from "../codecs/pipeline/compress.ts";

const width = Number(Deno.args[0] ?? 10000), height = Number(Deno.args[1] ?? 10000);
const data = new Uint8ClampedArray(width * height * 4);
for (let y = 0, p = 0; y < height; y++) {
  for (let x = 0; x < width; x++, p += 4) {
    data[p] = (x * 255) / width;
    data[p + 1] = (y * 255) / height;
    data[p + 2] = (x ^ y) & 0xff;
    data[p + 3] = 255;
  }
}
const settings = {
  ...DEFAULT_SETTINGS,
  chromaSubsampling: "4:4:4" as const,
  progressive: true,
  mode: "quality" as const,
  quality: 95,
};
const input = await encodeJpegPixels(
  { data, width, height },
  mozJpegOptions({ ...settings, progressive: false }, 98, false),
);
const t = performance.now();
const result = await compressImage(new AbortController().signal, { bytes: input, settings, maxPixels: Infinity });
const hwm = /VmHWM:\s+(\d+)/.exec(await Deno.readTextFile("/proc/self/status"))?.[1];
console.log(
  `${width}x${height}: ok in ${
    ((performance.now() - t) / 1000).toFixed(1)
  } s, ${result.compressedSize} bytes, peak RSS ${Math.round(Number(hwm) / 1024)} MB`,
);

/** Shared test helpers: fixtures, settings, and reading JPEG output bytes. */
import { inspectJpeg } from "../../codecs/mod.ts";
import { decodeJpegPixels, type RgbaImage } from "../../codecs/jpeg/decode.ts";
import { encodeJpegPixels } from "../../codecs/jpeg/encode.ts";
import { mozJpegOptions } from "../../codecs/jpeg/options.ts";
import { type CompressSettings, DEFAULT_SETTINGS } from "../../contract/settings.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url);

export function fixture(name: string): Promise<Uint8Array> {
  return Deno.readFile(new URL(name, FIXTURES));
}

export function settings(overrides: Partial<CompressSettings> = {}): CompressSettings {
  return { ...DEFAULT_SETTINGS, ...overrides };
}

export function sofMarker(bytes: Uint8Array): number {
  return inspectJpeg(bytes).sofMarker;
}

/** Luma DQT (table 0) in natural order of appearance (zigzag as stored). */
export function lumaQuantTable(bytes: Uint8Array): number[] {
  const dqt = inspectJpeg(bytes).segments.find((s) => s.marker === 0xdb)!;
  const p = dqt.payload;
  const sixteenBit = p[0]! >> 4 === 1;
  return Array.from({ length: 64 }, (_, i) => sixteenBit ? (p[1 + 2 * i]! << 8) | p[2 + 2 * i]! : p[1 + i]!);
}

export async function pixelAt(bytes: Uint8Array, x: number, y: number): Promise<[number, number, number]> {
  const image = await decodeJpegPixels(bytes);
  const p = (y * image.width + x) * 4;
  return [image.data[p]!, image.data[p + 1]!, image.data[p + 2]!];
}

/**
 * Smooth colour fields, `width`×`height`, as a q95 JPEG (the upload): a photo whose format ranking is known by
 * construction (JPEG's 8×8 blocks cost bytes on smooth gradients that AVIF and WebP do not).
 */
export async function smoothPhoto(width: number, height: number): Promise<Uint8Array<ArrayBuffer>> {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = 128 + 100 * Math.sin(x / 97 + y / 211);
      data[i + 1] = 128 + 90 * Math.cos(x / 153 - y / 87);
      data[i + 2] = 128 + 80 * Math.sin((x + y) / 301);
      data[i + 3] = 255;
    }
  }
  const image: RgbaImage = { data, width, height };
  return new Uint8Array(await encodeJpegPixels(image, mozJpegOptions(settings(), 95, false)));
}

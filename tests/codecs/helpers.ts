/** Shared test helpers: fixtures, settings, and reading JPEG output bytes. */
import { inspectJpeg } from "../../codecs/mod.ts";
import { decodeJpegPixels } from "../../codecs/jpeg/decode.ts";
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

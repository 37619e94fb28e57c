/**
 * A photo's pixels as every encoder in the bench sees them: decoded, turned upright by its EXIF orientation
 * (as the product does), and as PNM for the native tools (cjpeg, the reference SSIMULACRA 2).
 */
import { inspectJpeg, type JpegInfo } from "../codecs/container/inspect.ts";
import { applyOrientation } from "../codecs/image/orientation.ts";
import { decodeJpegPixels, type RgbaImage } from "../codecs/jpeg/decode.ts";

export interface Photo {
  info: JpegInfo;
  pixels: RgbaImage;
  /** A one-component source: the product encodes it as grey, the native tools read it as PGM. */
  grayscale: boolean;
}

export async function uprightPhoto(bytes: Uint8Array): Promise<Photo> {
  const info = inspectJpeg(bytes);
  return {
    info,
    pixels: applyOrientation(await decodeJpegPixels(bytes), info.orientation),
    grayscale: info.colorSpace === "grayscale",
  };
}

/** Packed samples without alpha: RGB, or one grey sample per pixel (decoded grey arrives as R = G = B). */
export function samples(image: RgbaImage, grayscale: boolean): Uint8Array {
  const channels = grayscale ? 1 : 3, rgba = image.data;
  const out = new Uint8Array(image.width * image.height * channels);
  for (let i = 0, o = 0; o < out.length; i += 4) {
    for (let c = 0; c < channels; c++) out[o++] = rgba[i + c]!;
  }
  return out;
}

/** Binary PNM: P6 (RGB) or P5 (grey). */
export function pnm(image: RgbaImage, grayscale: boolean): Uint8Array {
  const header = new TextEncoder().encode(`${grayscale ? "P5" : "P6"}\n${image.width} ${image.height}\n255\n`);
  const body = samples(image, grayscale);
  const out = new Uint8Array(header.length + body.length);
  out.set(header);
  out.set(body, header.length);
  return out;
}

/** libavif + dav1d decode (the package's decoder), used only to measure AVIF output against the original. */
import avifDecoder from "@jsquash/avif/codec/dec/avif_dec.js";
import { CodecError } from "../errors.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { CODEC_WASM, codecModule, compilePackageWasm } from "../wasm.ts";

interface AvifDecodeModule {
  decode(data: Uint8Array, bitDepth: 8): { data: Uint8ClampedArray; width: number; height: number } | null;
}
type Factory = (overrides: Record<string, unknown>) => Promise<AvifDecodeModule>;

let ready: Promise<AvifDecodeModule> | null = null;

export async function decodeAvifPixels(bytes: Uint8Array): Promise<RgbaImage> {
  // The glue is called directly, as the encoder's is (encode.ts): one way to load both.
  ready ??= compilePackageWasm(...CODEC_WASM["avif-decode"]).then((module) =>
    (avifDecoder as unknown as Factory)({ noInitialRun: true, ...codecModule(module) })
  );
  const decoder = await ready;
  try {
    const image = decoder.decode(bytes, 8);
    if (!image) throw new Error("libavif reported an error");
    return { data: image.data, width: image.width, height: image.height };
  } catch (error) {
    ready = null;
    throw new CodecError("corrupt_image", `Cannot decode the AVIF output: ${String(error)}`);
  }
}

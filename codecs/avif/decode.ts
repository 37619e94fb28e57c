/**
 * AVIF decode, used only to measure AVIF output against the original: icodec's build of libavif 1.1.1 with
 * libaom's AV1 decoder, in WebAssembly SIMD. Its pixels are Debian's `avifdec`'s (libavif with dav1d and
 * libyuv) to the byte, where @jsquash/avif's decoder differed by up to 2 levels on a fifth of them, and it
 * decodes in about 0.6 of the time (codecs/README.md, "AVIF"; ADR 046).
 */
// The package exports its .wasm files only; its glue is imported by path (Deno and Vite both resolve it).
import avifDecoder from "../../node_modules/icodec/dist/avif-dec.js";
import { CodecInstance } from "../codec-instance.ts";
import { CodecError } from "../errors.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { CODEC_WASM, codecModule, compilePackageWasm } from "../wasm.ts";
import { AVIF_KEEP_HEAP_BYTES } from "./encode.ts";

interface AvifDecodeModule {
  /** An image, or libavif's message when the file cannot be decoded. */
  decode(data: Uint8Array): { data: Uint8ClampedArray; width: number; height: number; depth: number } | string;
}
type Factory = (overrides: Record<string, unknown>) => Promise<AvifDecodeModule>;

// The glue builds its result through this global (icodec's own loaders define it as an ImageData maker).
(globalThis as { _icodec_ImageData?: unknown })._icodec_ImageData ??= (
  data: Uint8ClampedArray,
  width: number,
  height: number,
  depth = 8,
) => ({ data, width, height, depth });

// Its heap is dropped after a large image, as the encoder's is.
const decoder = new CodecInstance(
  () => compilePackageWasm(...CODEC_WASM["avif-decode"]),
  (module) => (avifDecoder as unknown as Factory)(codecModule(module)),
  AVIF_KEEP_HEAP_BYTES,
);

export async function decodeAvifPixels(bytes: Uint8Array): Promise<RgbaImage> {
  let image: ReturnType<AvifDecodeModule["decode"]>;
  try {
    image = await decoder.run((api) => api.decode(bytes));
  } catch (error) {
    throw new CodecError("corrupt_image", `Cannot decode the AVIF output: ${String(error)}`);
  }
  if (typeof image === "string" || !image) {
    throw new CodecError("corrupt_image", `Cannot decode the AVIF output: ${image || "libavif reported an error"}`);
  }
  // Output is 8 bits unless the file holds more: ours are always 8-bit.
  if (image.depth !== 8) throw new CodecError("corrupt_image", `Cannot decode the AVIF output: ${image.depth}-bit`);
  return { data: image.data, width: image.width, height: image.height };
}

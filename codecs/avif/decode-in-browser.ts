/**
 * The live preview's AVIF decoder (the web build resolves `./decode.ts` to this file: vite.config.ts): @jsquash's
 * libavif with libaom's AV1 decoder. icodec's glue, which the server measures with (decode.ts), builds embind's
 * calls with `new Function`, and the preview worker's CSP allows WebAssembly but no eval; this build does not.
 * Its pixels differ from avifdec's by up to 2 levels, so the preview's AVIF score can read a few tenths above
 * the job's (ADR 046).
 */
import avifDecoder from "@jsquash/avif/codec/dec/avif_dec.js";
import { CodecInstance } from "../codec-instance.ts";
import { CodecError } from "../errors.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { CODEC_WASM, codecModule, compilePackageWasm } from "../wasm.ts";
import { AVIF_KEEP_HEAP_BYTES } from "./encode.ts";

interface AvifDecodeModule {
  decode(data: Uint8Array, bitDepth: 8): { data: Uint8ClampedArray; width: number; height: number } | null;
}
type Factory = (overrides: Record<string, unknown>) => Promise<AvifDecodeModule>;

// The glue is called directly, as the encoder's is (encode.ts); browser-wasm.ts compiles this build's .wasm
// under CODEC_WASM's "avif-decode". Its heap (18.6 bytes per pixel) is dropped after a large image.
const decoder = new CodecInstance(
  () => compilePackageWasm(...CODEC_WASM["avif-decode"]),
  (module) => (avifDecoder as unknown as Factory)({ noInitialRun: true, ...codecModule(module) }),
  AVIF_KEEP_HEAP_BYTES,
);

export async function decodeAvifPixels(bytes: Uint8Array): Promise<RgbaImage> {
  let image: ReturnType<AvifDecodeModule["decode"]>;
  try {
    image = await decoder.run((api) => api.decode(bytes, 8));
  } catch (error) {
    throw new CodecError("corrupt_image", `Cannot decode the AVIF output: ${String(error)}`);
  }
  if (!image) throw new CodecError("corrupt_image", "Cannot decode the AVIF output: libavif reported an error");
  return { data: image.data, width: image.width, height: image.height };
}

/**
 * The browser's side of the WASM seam (wasm.ts): the live preview's Web Worker compiles every module the
 * codecs use from the files the bundler emitted, then hands them to `useCompiledModules`, so no codec ever
 * reaches Deno's file API there. Each URL is a literal `new URL("…", import.meta.url)`, which Vite copies
 * into the build as an asset (our own modules are declared the same way in wasm.ts); under Deno nothing
 * here runs.
 */
import {
  CODEC_WASM,
  type CodecWasmName,
  type CompiledModules,
  JPEGLI_WASM,
  METRIC_WASM,
  METRIC_WASM_PORTABLE,
  packageWasmKey,
  RESIZE_WASM,
  useCompiledModules,
} from "./wasm.ts";

/** The packages' files by CODEC_WASM's names (node_modules/@jsquash/* are the pinned packages). */
const PACKAGE_FILES: Readonly<Record<CodecWasmName, URL>> = {
  "mozjpeg-decode": new URL("../node_modules/@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm", import.meta.url),
  "mozjpeg-encode": new URL("../node_modules/@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm", import.meta.url),
  "webp-decode": new URL("../node_modules/@jsquash/webp/codec/dec/webp_dec.wasm", import.meta.url),
  "webp-encode": new URL("../node_modules/@jsquash/webp/codec/enc/webp_enc_simd.wasm", import.meta.url),
  // The preview decodes AVIF with @jsquash's build (avif/decode-in-browser.ts says why), the server with icodec's.
  "avif-decode": new URL("../node_modules/@jsquash/avif/codec/dec/avif_dec.wasm", import.meta.url),
  "avif-encode": new URL("../node_modules/@jsquash/avif/codec/enc/avif_enc.wasm", import.meta.url),
};

const compile = async (url: URL): Promise<WebAssembly.Module> => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Cannot load ${url.pathname}: ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
};

/**
 * Compiles every codec and the metric (in parallel) and makes them the codecs' modules in this thread.
 * A browser without relaxed SIMD cannot compile the fast metric: the portable one is used (ssimulacra2.ts).
 */
export async function loadBrowserCodecs(): Promise<void> {
  const modules: CompiledModules = {};
  await Promise.all([
    ...(Object.entries(CODEC_WASM) as [CodecWasmName, readonly [string, string]][]).map(
      async ([name, [entry, file]]) => {
        modules[packageWasmKey(entry, file)] = await compile(PACKAGE_FILES[name]);
      },
    ),
    ...[JPEGLI_WASM, METRIC_WASM_PORTABLE, RESIZE_WASM].map(async (url) => {
      modules[url.href] = await compile(url);
    }),
    compile(METRIC_WASM).then((m) => void (modules[METRIC_WASM.href] = m), () => {}),
  ]);
  useCompiledModules(modules);
}

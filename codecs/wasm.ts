/**
 * Compiles a codec's .wasm straight from node_modules (and ours, built from C
 * in this repository: the metric). The emscripten glue's
 * own loader fetches relative to import.meta.url, which does not work under
 * Deno (neither "web" nor "worker" by its detection), so we compile once and
 * hand the module to the jsquash `init`.
 *
 * The seam between environments is the table of compiled modules, keyed by `wasmKey`: whoever starts the
 * codecs may fill it first (`useCompiledModules`). The server's host worker compiles every module with
 * `compileCodecs` (Deno reads the files); the browser's live preview worker fetches the files its bundler
 * emitted and compiles them (`browser-wasm.ts`). Only a module nobody supplied is read here with Deno's file
 * API (tests, benches), so the browser never reaches it.
 */
import { adviseHugePages } from "./libc.ts";

const compiled = new Map<string, Promise<WebAssembly.Module>>();

/**
 * Every package WASM a worker may load, by name: [a resolvable module of the package, the file relative to
 * it]. The browser's list (browser-wasm.ts) is keyed by the same names, so a module added here without its
 * browser file does not compile.
 */
export const CODEC_WASM = {
  "mozjpeg-decode": ["@jsquash/jpeg/decode.js", "./codec/dec/mozjpeg_dec.wasm"],
  "mozjpeg-encode": ["@jsquash/jpeg/encode.js", "./codec/enc/mozjpeg_enc.wasm"],
  "webp-decode": ["@jsquash/webp/decode.js", "./codec/dec/webp_dec.wasm"],
  "webp-encode": ["@jsquash/webp/encode.js", "./codec/enc/webp_enc_simd.wasm"],
  // icodec's libavif decodes to avifdec's pixels (avif/decode.ts; the browser's preview compiles @jsquash's under
  // this name: avif/decode-in-browser.ts); the encoder is @jsquash's single-thread build (avif/encode.ts says why).
  "avif-decode": ["icodec/avif-dec.wasm", "./avif-dec.wasm"],
  "avif-encode": ["@jsquash/avif/encode.js", "./codec/enc/avif_enc.wasm"],
} as const satisfies Record<string, readonly [entry: string, file: string]>;
export type CodecWasmName = keyof typeof CODEC_WASM;

/** WASM of our own, committed next to its C source (codecs/README.md says how to rebuild it). */
export const METRIC_WASM = new URL("./quality/ssimulacra2.wasm", import.meta.url);
/** The same metric without relaxed SIMD (its FMAs emulated in double): where relaxed SIMD is missing or unfused. */
export const METRIC_WASM_PORTABLE = new URL("./quality/ssimulacra2-fma-emulated.wasm", import.meta.url);
/** jpegli's encoder, built by scripts/build-jpegli-wasm.sh from the pinned sources (codecs/jpegli/). */
export const JPEGLI_WASM = new URL("./jpegli/jpegli.wasm", import.meta.url);
/** libjxl's lossless JPEG ⇄ JPEG XL transcoder, built by scripts/build-jxl-wasm.sh (codecs/jxl/). */
export const JXL_WASM = new URL("./jxl/jxl.wasm", import.meta.url);
/** The resampler's two passes in WASM SIMD, built by scripts/build-resize-wasm.sh (image/resize.c). */
export const RESIZE_WASM = new URL("./image/resize.wasm", import.meta.url);
const OWN_WASM: readonly URL[] = [METRIC_WASM, METRIC_WASM_PORTABLE, JPEGLI_WASM, JXL_WASM, RESIZE_WASM];

/** Our own modules, ready for synchronous instantiation (the metric's API is synchronous). */
const ownCompiled = new Map<string, WebAssembly.Module>();

/**
 * Compiled modules by key (`packageWasmKey` for a package's file, the file URL's href for ours), as posted from
 * the host worker to each codec worker, or compiled by the browser's live preview worker.
 */
export type CompiledModules = Record<string, WebAssembly.Module>;

/**
 * Compiles every codec once (the host worker does, for all codec workers).
 * A posted WebAssembly.Module shares its machine code: code V8 has optimised
 * (tiered up from Liftoff to TurboFan) for one worker serves every later one.
 */
export async function compileCodecs(): Promise<CompiledModules> {
  const modules: CompiledModules = {};
  for (const [entry, file] of Object.values(CODEC_WASM)) {
    modules[packageWasmKey(entry, file)] = await compilePackageWasm(entry, file);
  }
  for (const url of OWN_WASM) {
    // A runtime without relaxed SIMD cannot compile the fast metric: its users fall back to the portable one.
    await WebAssembly.compile(await Deno.readFile(url)).then((m) => modules[url.href] = m, () => {});
  }
  return modules;
}

/** Makes `compilePackageWasm` return these modules instead of compiling its own. */
export function useCompiledModules(modules: CompiledModules): void {
  for (const [href, module] of Object.entries(modules)) {
    if (!compiled.has(href)) compiled.set(href, Promise.resolve(module));
    if (!ownCompiled.has(href)) ownCompiled.set(href, module);
  }
}

/** One of OWN_WASM: as posted by the host worker, else compiled here on first use (tests, benches). */
export function compiledModuleSync(url: URL): WebAssembly.Module {
  let module = ownCompiled.get(url.href);
  if (!module) ownCompiled.set(url.href, module = new WebAssembly.Module(Deno.readFileSync(url)));
  return module;
}

/**
 * A package's WASM file by name, the same in every environment (`import.meta.resolve` of a bare specifier
 * works under Deno only, so the file's URL is resolved only where it is read: here, under Deno).
 */
export const packageWasmKey = (entry: string, file: string): string => `${entry}#${file}`;

const wasmUrl = (entry: string, file: string) => new URL(file, import.meta.resolve(entry));

/** `entry` is a resolvable module of the package; `file` is relative to it. */
export function compilePackageWasm(entry: string, file: string): Promise<WebAssembly.Module> {
  const key = packageWasmKey(entry, file);
  let module = compiled.get(key);
  if (!module) {
    module = Deno.readFile(wasmUrl(entry, file)).then((bytes) => WebAssembly.compile(bytes));
    compiled.set(key, module);
  }
  return module;
}

/** Emscripten reports a C `exit()` as a thrown ExitStatus object, not an Error. */
export function isEmscriptenExit(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "ExitStatus";
}

/** Each codec's current WASM memory, by compiled module (a re-instantiated codec replaces its entry). */
const heaps = new Map<WebAssembly.Module, WebAssembly.Memory>();

/** Bytes held by this thread's codec and metric heaps: they grow with the largest image and never shrink. */
export function wasmHeapBytes(): number {
  let bytes = 0;
  for (const memory of heaps.values()) bytes += memory.buffer.byteLength;
  return bytes;
}

/** The bytes of one codec's current heap (0 when it has none). */
export function heapBytesOf(module: WebAssembly.Module): number {
  return heaps.get(module)?.buffer.byteLength ?? 0;
}

/** Stops counting a module's heap: its instance was dropped, and its memory goes with the next collection. */
export function forgetHeap(module: WebAssembly.Module): void {
  highWater.set(module, Math.max(highWater.get(module) ?? 0, heapBytesOf(module)));
  heaps.delete(module);
  forgottenSinceAsked = true;
}

let forgottenSinceAsked = false;

/**
 * Whether a heap was dropped since the last call. A heap dropped during a job may outlive the collection that
 * followed, held by pixels still in use (the JPEG decoder's, ADR 049): the worker collects again once idle.
 */
export function takeHeapsForgotten(): boolean {
  const forgotten = forgottenSinceAsked;
  forgottenSinceAsked = false;
  return forgotten;
}

/** The most each dropped heap reached since `resetHeapHighWater`: what a call grew before its instance went. */
const highWater = new Map<WebAssembly.Module, number>();

export function resetHeapHighWater(): void {
  highWater.clear();
}

/** The heaps' bytes at their most since `resetHeapHighWater`, dropped instances included (for the bench). */
export function heapHighWaterBytes(): number {
  let bytes = 0;
  for (const module of new Set([...heaps.keys(), ...highWater.keys()])) {
    bytes += Math.max(highWater.get(module) ?? 0, heapBytesOf(module));
  }
  return bytes;
}

/** Counts a WASM memory of ours (the metric's, jpegli's) in `wasmHeapBytes`. */
export function trackHeap(module: WebAssembly.Module, memory: WebAssembly.Memory): void {
  heaps.set(module, memory);
}

/** jsquash's `init(module, overrides)`; its .d.ts only declares the one-argument form. */
export type JsquashInit = (module: WebAssembly.Module, overrides: Record<string, unknown>) => Promise<unknown>;

/**
 * Emscripten module overrides: instantiate the compiled module with its heap
 * on huge pages, keep codec chatter off the console, optionally capture stderr.
 */
export function codecModule(module: WebAssembly.Module, onStderr?: (line: string) => void): Record<string, unknown> {
  return {
    instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) {
      const instance = new WebAssembly.Instance(module, imports);
      const memory = Object.values(instance.exports).find((v) => v instanceof WebAssembly.Memory);
      if (memory) {
        adviseHugePages(memory.buffer, HEAP_RESERVE_BYTES);
        heaps.set(module, memory);
      }
      done(instance);
      return instance.exports;
    },
    // The .wasm is never fetched (instantiateWasm above); without this a glue imported from a data: URL
    // (embind-glue.ts) resolves the file's name against that URL and throws.
    locateFile: (path: string) => path,
    print: () => {},
    printErr: onStderr ?? (() => {}),
  };
}

/** The most a codec heap can grow to (emscripten's default maximum). */
const HEAP_RESERVE_BYTES = 2 ** 31;

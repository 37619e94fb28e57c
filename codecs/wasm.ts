/**
 * Compiles a codec's .wasm straight from node_modules. The emscripten glue's
 * own loader fetches relative to import.meta.url, which does not work under
 * Deno (neither "web" nor "worker" by its detection), so we compile once and
 * hand the module to the jsquash `init`.
 */
import { adviseHugePages } from "./libc.ts";

const compiled = new Map<string, Promise<WebAssembly.Module>>();

/** `entry` is a resolvable module of the package; `file` is relative to it. */
export function compilePackageWasm(entry: string, file: string): Promise<WebAssembly.Module> {
  const url = new URL(file, import.meta.resolve(entry));
  const key = url.href;
  let module = compiled.get(key);
  if (!module) {
    module = Deno.readFile(url).then((bytes) => WebAssembly.compile(bytes));
    compiled.set(key, module);
  }
  return module;
}

/** Emscripten reports a C `exit()` as a thrown ExitStatus object, not an Error. */
export function isEmscriptenExit(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "ExitStatus";
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
      if (memory) adviseHugePages(memory.buffer, HEAP_RESERVE_BYTES);
      done(instance);
      return instance.exports;
    },
    print: () => {},
    printErr: onStderr ?? (() => {}),
  };
}

/** The most a codec heap can grow to (emscripten's default maximum). */
const HEAP_RESERVE_BYTES = 2 ** 31;

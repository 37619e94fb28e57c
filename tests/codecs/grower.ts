/**
 * A codec instance over a minimal WASM module whose one function grows its memory: for tests of heap
 * accounting (codec-instance.ts, the worker's heaps between jobs).
 */
import { CodecInstance } from "../../codecs/codec-instance.ts";
import { codecModule } from "../../codecs/wasm.ts";

// (module (memory (export "memory") 1) (func (export "grow") (param i32) (result i32) local.get 0 memory.grow))
const GROWER = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00,
  0x01,
  0x06,
  0x01,
  0x60,
  0x01,
  0x7f,
  0x01,
  0x7f,
  0x03,
  0x02,
  0x01,
  0x00,
  0x05,
  0x03,
  0x01,
  0x00,
  0x01,
  0x07,
  0x11,
  0x02,
  0x06,
  0x6d,
  0x65,
  0x6d,
  0x6f,
  0x72,
  0x79,
  0x02,
  0x00,
  0x04,
  0x67,
  0x72,
  0x6f,
  0x77,
  0x00,
  0x00,
  0x0a,
  0x08,
  0x01,
  0x06,
  0x00,
  0x20,
  0x00,
  0x40,
  0x00,
  0x0b,
]);
export const PAGE = 65_536;

interface Grower {
  grow(pages: number): number;
}

export function grower(keepHeapBytes: number) {
  const made: WebAssembly.Instance[] = [];
  // Compiled once, as compilePackageWasm does: a codec's heap is counted by its module.
  const compiled = WebAssembly.compile(GROWER);
  const instance = new CodecInstance<Grower>(
    () => compiled,
    (module) =>
      new Promise((resolve) => {
        const overrides = codecModule(module) as {
          instantiateWasm(imports: WebAssembly.Imports, done: (i: WebAssembly.Instance) => void): unknown;
        };
        overrides.instantiateWasm({}, (made1) => {
          made.push(made1);
          resolve(made1.exports as unknown as Grower);
        });
      }),
    keepHeapBytes,
  );
  return { instance, made };
}

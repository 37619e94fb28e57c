/** How the engine keeps its memory down: pixels freed early, codec heaps on huge pages. */
import assert from "node:assert/strict";
import { releasePixels } from "../../codecs/image/release.ts";
import { codecModule } from "../../codecs/wasm.ts";

const MB = 1024 * 1024;
const rssBytes = () => Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync("/proc/self/status"))![1]) * 1024;
const minorFaults = () => Number(Deno.readTextFileSync("/proc/self/stat").split(") ")[1]!.split(" ")[7]);
const linux = Deno.build.os === "linux";

Deno.test("releasing an image's pixels gives their memory back at once", { ignore: !linux }, () => {
  const image = { data: new Uint8ClampedArray(128 * MB).fill(7), width: 8192, height: 4096 };
  const before = rssBytes();
  releasePixels(image);
  assert.ok(before - rssBytes() > 96 * MB, `RSS fell by only ${((before - rssBytes()) / MB).toFixed(0)} MB`);
  assert.equal(image.data.byteLength, 0);
  assert.deepEqual([image.width, image.height], [8192, 4096], "the dimensions stay for the result");
  releasePixels(image); // a second release (e.g. the same image under two names) is harmless
});

/** A WASM module that only exports a growable memory, as the emscripten codecs do. */
const MEMORY_ONLY = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // magic, version
  ...[0x05, 0x06, 0x01, 0x01, 0x01, 0x80, 0x80, 0x04], // memory: 1 page, at most 65536
  ...[0x07, 0x05, 0x01, 0x01, 0x6d, 0x02, 0x00], // export it as "m"
]);

const thpAvailable = linux && !/\[never\]/.test(
  (() => {
    try {
      return Deno.readTextFileSync("/sys/kernel/mm/transparent_hugepage/enabled");
    } catch {
      return "[never]";
    }
  })(),
);

Deno.test("a codec's heap grows on huge pages, not one 4 KB fault at a time", { ignore: !thpAvailable }, () => {
  const overrides = codecModule(new WebAssembly.Module(MEMORY_ONLY)) as {
    instantiateWasm(imports: WebAssembly.Imports, done: (i: WebAssembly.Instance) => void): WebAssembly.Exports;
  };
  let instance: WebAssembly.Instance | null = null;
  overrides.instantiateWasm({}, (i) => (instance = i));
  const memory = (instance as unknown as WebAssembly.Instance).exports.m as WebAssembly.Memory;
  const before = minorFaults();
  memory.grow((64 * MB) / 65536);
  new Uint8Array(memory.buffer).fill(1);
  const faults = minorFaults() - before;
  // 64 MB in 4 KB pages is 16384 faults; in 2 MB pages, 32 (plus noise from the rest of the process).
  assert.ok(faults < 4096, `${faults} page faults while touching 64 MB`);
});

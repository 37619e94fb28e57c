/// <reference lib="deno.worker" />
/**
 * Codec worker entry: one job at a time; WASM modules are compiled on first
 * use and reused. Started by host-worker.ts, it talks to the pool over the
 * MessagePort it is given first.
 */
import { toCodecErrorData } from "../errors.ts";
import { scoreImage } from "../pipeline/compress.ts";
import { compressJob } from "../pipeline/web-set.ts";
import { jxlToJpeg } from "../jxl/lossless.ts";
import { inputBytes } from "../types.ts";
import type { ConnectWorker, FromWorker, ToWorker, WarmWorker } from "./protocol.ts";
import { lowerThreadPriority } from "../libc.ts";
import { collectGarbageSoon, setGarbageCollector } from "../collect-garbage.ts";
import { releaseIdleHeaps } from "../idle-heaps.ts";
import v8 from "node:v8";
import vm from "node:vm";
import { useCompiledModules, wasmHeapBytes } from "../wasm.ts";

lowerThreadPriority();
// V8's `gc`, for dropped codec heaps (collect-garbage.ts): the flag is process-wide, and a new context
// created after it has the function.
v8.setFlagsFromString("--expose-gc");
setGarbageCollector(vm.runInNewContext("gc"));

/**
 * The heaps this worker keeps after a job, once the large ones are given back (idle-heaps.ts): the pool
 * recycles the worker when they still pass its threshold. The collection runs after the job's frames are gone.
 */
function heldAfterJob(): number {
  if (releaseIdleHeaps()) void collectGarbageSoon();
  return wasmHeapBytes();
}

self.onmessage = (event: MessageEvent<WarmWorker | ConnectWorker>) => {
  if (event.data.type === "warm") return useCompiledModules(event.data.modules);
  const port = event.data.port;
  const post = (message: FromWorker, transfer: Transferable[] = []) => port.postMessage(message, transfer);
  port.onmessage = async (event: MessageEvent<ToWorker>) => {
    const message = event.data;
    const { id } = message;
    post({ type: "started", id });
    // The pool aborts by terminating this worker.
    const signal = new AbortController().signal;
    // Header checks run before any WASM call: a failure there leaves the worker as it was.
    let wasmUsed = message.type === "score";
    try {
      if (message.type === "restore") {
        wasmUsed = true;
        const jpeg = jxlToJpeg(await inputBytes(message.bytes));
        return post({ type: "restored", id, jpeg, heapBytes: heldAfterJob() }, [jpeg.buffer]);
      }
      if (message.type === "score") {
        const [original, output] = await Promise.all([inputBytes(message.original), inputBytes(message.output)]);
        const report = await scoreImage(signal, original, output);
        return post({ type: "scored", id, report, heapBytes: heldAfterJob() });
      }
      const { settings, maxPixels, deferScore } = message;
      const bytes = await inputBytes(message.bytes);
      const result = await compressJob(
        signal,
        { bytes, settings, maxPixels, deferScore },
        (stage, percent) => {
          if (stage !== "inspect") wasmUsed = true;
          post({ type: "progress", id, stage, percent });
        },
      );
      post({ type: "result", id, result, heapBytes: heldAfterJob() }, [
        result.bytes.buffer as ArrayBuffer,
        result.thumbnail.buffer as ArrayBuffer,
        ...(result.set ?? []).map((file) => file.bytes.buffer as ArrayBuffer),
      ]);
    } catch (error) {
      const data = toCodecErrorData(error);
      // A failed decode/encode may leave WASM state behind; a fresh worker is cheap.
      post({
        type: "error",
        id,
        error: data,
        recycle: wasmUsed && data.code === "corrupt_image",
        heapBytes: heldAfterJob(),
      });
    }
  };
};

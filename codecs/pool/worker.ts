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
import { fullCollection, setGarbageCollector } from "../collect-garbage.ts";
import { inspectJpeg } from "../container/inspect.ts";
import { afterJob, beforeJob, keepKind } from "./heaps-between-jobs.ts";
import { useCompiledModules } from "../wasm.ts";

lowerThreadPriority();
// V8's `gc`, for dropped codec heaps (collect-garbage.ts).
const collect = fullCollection();
if (collect) setGarbageCollector(collect);

/** The pixels of a JPEG by its header, 0 when it has none (the job itself reports why). */
function pixelsOf(bytes: Uint8Array): number {
  try {
    const { width, height } = inspectJpeg(bytes);
    return width * height;
  } catch {
    return 0;
  }
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
        const bytes = await inputBytes(message.bytes);
        await beforeJob(null, 0);
        const jpeg = jxlToJpeg(bytes);
        return post({ type: "restored", id, jpeg, heapBytes: afterJob() }, [jpeg.buffer]);
      }
      if (message.type === "score") {
        const [original, output] = await Promise.all([inputBytes(message.original), inputBytes(message.output)]);
        await beforeJob(null, 0);
        const report = await scoreImage(signal, original, output);
        return post({ type: "scored", id, report, heapBytes: afterJob() });
      }
      const { settings, maxPixels, deferScore, part } = message;
      const bytes = await inputBytes(message.bytes);
      await beforeJob(keepKind(settings, deferScore), pixelsOf(bytes));
      const result = await compressJob(
        signal,
        { bytes, settings, maxPixels, deferScore, part },
        (stage, percent) => {
          if (stage !== "inspect") wasmUsed = true;
          post({ type: "progress", id, stage, percent });
        },
      );
      post({ type: "result", id, result, heapBytes: afterJob() }, [
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
        heapBytes: afterJob(),
      });
    }
  };
};

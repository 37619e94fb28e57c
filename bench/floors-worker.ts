/** A worker running bench/floors.ts `photoFloors`: one photo per message, answered with its floors or an error. */
import { type FloorsRequest, photoFloors } from "./floors.ts";

self.onmessage = async ({ data }: MessageEvent<FloorsRequest>) => {
  try {
    self.postMessage({ floors: await photoFloors(data) });
  } catch (error) {
    self.postMessage({ error: String((error as Error).stack ?? error) });
  }
};

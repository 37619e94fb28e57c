/** How the engine keeps its memory down: pixels freed early. */
import assert from "node:assert/strict";
import { releasePixels } from "../../codecs/image/release.ts";

const MB = 1024 * 1024;
const rssBytes = () => Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync("/proc/self/status"))![1]) * 1024;
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

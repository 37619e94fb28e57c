/**
 * For let-go.test.ts, in a fresh process: 64 MB of Blobs dropped, then a full collection. Prints the RSS (MB)
 * before, while held, and 200 ms after the collection (the Blobs' parts are removed by their finalizers, which run
 * after it).
 */
import { fullCollection } from "../../codecs/collect-garbage.ts";

const MB = 2 ** 20;
const rss = () => Deno.memoryUsage().rss / MB;
const collect = fullCollection();
if (!collect) throw new Error("V8's gc is not available here");
collect();
const before = rss();
let blobs: Blob[] = Array.from({ length: 64 }, (_, i) => new Blob([new Uint8Array(MB).fill(i)]));
const held = rss();
const count = blobs.length;
blobs = [];
collect();
await new Promise((r) => setTimeout(r, 200));
console.log(JSON.stringify({ before, held, after: rss(), count, left: blobs.length }));

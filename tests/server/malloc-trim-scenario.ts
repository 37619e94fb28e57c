/**
 * For malloc-trim.test.ts, in a fresh process: blocks kept between larger ones dropped, so the dropped ones' room
 * is free but holed and free() keeps it; then a trim. Prints the RSS (MB) at each point. (Kept blocks of 64 bytes
 * came from malloc's small bins, elsewhere, in 3 runs of 10: the dropped ones then lay together and glibc gave
 * them back by itself.)
 */
import { fullCollection } from "../../codecs/collect-garbage.ts";
import { openMallocTrim } from "../../codecs/libc.ts";

const rss = () => Deno.memoryUsage().rss / 2 ** 20;
const collect = fullCollection();
const libc = openMallocTrim();
if (!collect || !libc) throw new Error("V8's gc or glibc's malloc_trim is not available here");
const kept: Blob[] = [];
let dropped: Blob[] = [];
for (let i = 0; i < 640; i++) {
  dropped.push(new Blob([new Uint8Array(100_000).fill(i)]));
  kept.push(new Blob([new Uint8Array(4096).fill(i)]));
}
const held = rss();
dropped = [];
collect();
await new Promise((r) => setTimeout(r, 200)); // the Blobs' parts go in their finalizers, after the collection
const freed = rss();
await libc.trim();
const trimmed = rss();
libc.close();
console.log(JSON.stringify({ held, freed, trimmed, kept: kept.length, dropped: dropped.length }));

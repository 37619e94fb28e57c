/**
 * AVIF seen from outside our code: Debian's `avifdec` (libavif-bin, installed by .ci/run) decodes and
 * describes a file, and a few lines of box reading find an item's bytes the way a HEIF reader does.
 */
import { decodePng } from "../../bench/quality-reference.ts";
import { readBoxes, readUint } from "../../codecs/container/isobmff.ts";
import type { RgbaImage } from "../../codecs/jpeg/decode.ts";

/** Runs avifdec with `args` on `avif` (in a temporary folder), writing `output` there if named. */
async function avifdec(avif: Uint8Array, args: string[], output?: string): Promise<{ text: string; out?: Uint8Array }> {
  const dir = await Deno.makeTempDir();
  try {
    const input = `${dir}/in.avif`;
    await Deno.writeFile(input, avif);
    const run = await new Deno.Command("avifdec", { args: [...args, input, ...(output ? [`${dir}/${output}`] : [])] })
      .output()
      .catch((error) => {
        throw new Error(`avifdec is needed (apt-get install libavif-bin): ${error}`);
      });
    const text = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
    if (!run.success) throw new Error(`avifdec ${args.join(" ")} failed: ${text}`);
    return { text, out: output ? await Deno.readFile(`${dir}/${output}`) : undefined };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** `avifdec --info`: resolution, format (YUV420…), ICC / Exif presence and sizes, as libavif reads them. */
export const avifInfo = async (avif: Uint8Array): Promise<string> => (await avifdec(avif, ["--info"])).text;

/** The pixels libavif with dav1d (native, not our WASM) decodes, through a PNG. */
export async function nativeDecode(avif: Uint8Array): Promise<RgbaImage> {
  const image = await decodePng((await avifdec(avif, [], "out.png")).out!);
  return { data: image.data as Uint8ClampedArray, width: image.width, height: image.height };
}

/** The data of every item of `type` (a HEIF reader's view: iinf names it, iloc says where it is). */
export function itemsOfType(avif: Uint8Array, type: string): Uint8Array[] {
  const meta = readBoxes(avif).find((b) => b.type === "meta")!;
  const boxes = readBoxes(avif, meta.bodyStart + 4, meta.end);
  const iinf = boxes.find((b) => b.type === "iinf")!, iloc = boxes.find((b) => b.type === "iloc")!;
  const ids = readBoxes(avif, iinf.bodyStart + (avif[iinf.bodyStart] === 0 ? 6 : 8), iinf.end)
    .filter((b) => String.fromCharCode(...avif.subarray(b.bodyStart + 8, b.bodyStart + 12)) === type)
    .map((b) => readUint(avif, b.bodyStart + 4, 2));
  // Our files' iloc: version 0, 4-byte offsets and lengths, no base offset, one extent per item.
  assert(avif[iloc.bodyStart] === 0 && avif[iloc.bodyStart + 4] === 0x44 && avif[iloc.bodyStart + 5] === 0);
  const found: Uint8Array[] = [];
  for (let i = 0, at = iloc.bodyStart + 8; i < readUint(avif, iloc.bodyStart + 6, 2); i++, at += 14) {
    // item_ID, data_reference_index, extent_count (1), extent_offset, extent_length
    const [id, offset, length] = [readUint(avif, at, 2), readUint(avif, at + 6, 4), readUint(avif, at + 10, 4)];
    if (ids.includes(id)) found.push(avif.subarray(offset, offset + length));
  }
  return found;
}

/** The payload of each `colr` property of `colourType` ("nclx", "prof"). */
export function colourProperties(avif: Uint8Array, colourType: string): Uint8Array[] {
  const meta = readBoxes(avif).find((b) => b.type === "meta")!;
  const iprp = readBoxes(avif, meta.bodyStart + 4, meta.end).find((b) => b.type === "iprp")!;
  const ipco = readBoxes(avif, iprp.bodyStart, iprp.end).find((b) => b.type === "ipco")!;
  return readBoxes(avif, ipco.bodyStart, ipco.end)
    .filter((b) =>
      b.type === "colr" && String.fromCharCode(...avif.subarray(b.bodyStart, b.bodyStart + 4)) === colourType
    )
    .map((b) => avif.subarray(b.bodyStart + 4, b.end));
}

function assert(condition: boolean): asserts condition {
  if (!condition) throw new Error("Not an iloc box this helper reads");
}

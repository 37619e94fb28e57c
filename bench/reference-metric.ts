/**
 * The reference SSIMULACRA 2.1 tool (Cloudinary's standalone `ssimulacra2`, built from
 * ../shared/tools/ssimulacra2 by ../shared/tools/build-ssimulacra2.sh). Both sides are handed to it as
 * PNM of the pixels the product measures (upright, decoded by our decoder, which matches djpeg): a
 * colour profile is not applied, as in the engine's metric, and an EXIF orientation cannot differ.
 */
import type { RgbaImage } from "../codecs/jpeg/decode.ts";
import { type Photo, pnm } from "./pixels.ts";

const REPO = new URL("../", import.meta.url);
const BUILD_SCRIPT = new URL("../shared/tools/build-ssimulacra2.sh", REPO);
const TOOL_DIR = new URL(".corpus/tools/", REPO);

/**
 * The tool's path: $SSIMULACRA2, else .corpus/tools/ssimulacra2, built there when missing (about a minute
 * on 2 cores; needs apt for cmake, libhwy and lcms2). Null when it cannot be had.
 */
export async function referenceTool(): Promise<string | null> {
  const path = Deno.env.get("SSIMULACRA2") ?? new URL("ssimulacra2", TOOL_DIR).pathname;
  try {
    await Deno.stat(path);
    return path;
  } catch {
    if (Deno.env.get("SSIMULACRA2")) return null;
  }
  const build = await new Deno.Command("sh", {
    args: [BUILD_SCRIPT.pathname, TOOL_DIR.pathname],
    stdout: "null",
    stderr: "inherit",
  }).output();
  return build.success ? path : null;
}

export interface ReferenceScorer {
  /** The reference score of `output` (decoded pixels) against the photo. */
  score(output: RgbaImage): Promise<number>;
  close(): Promise<void>;
}

/** Writes the photo once as PNM; each score writes the output beside it and runs the tool. */
export async function referenceScorer(tool: string, photo: Photo): Promise<ReferenceScorer> {
  const dir = await Deno.makeTempDir({ prefix: "bench-ssimulacra2-" });
  const original = `${dir}/original.pnm`, distorted = `${dir}/distorted.pnm`;
  await Deno.writeFile(original, pnm(photo.pixels, photo.grayscale));
  return {
    async score(output) {
      await Deno.writeFile(distorted, pnm(output, photo.grayscale));
      const run = await new Deno.Command(tool, { args: [original, distorted], stdout: "piped", stderr: "piped" })
        .output();
      const text = new TextDecoder().decode(run.success ? run.stdout : run.stderr).trim();
      if (!run.success) throw new Error(`ssimulacra2 failed: ${text}`);
      return Number(text);
    },
    close: () => Deno.remove(dir, { recursive: true }),
  };
}

/** libjpeg-turbo's cjpeg as the reference encoder (installed from Debian when missing). */
export async function ensureCjpeg(): Promise<void> {
  const found = await new Deno.Command("sh", { args: ["-c", "command -v cjpeg && command -v djpeg"], stdout: "null" })
    .output();
  if (found.success) return;
  const install = await new Deno.Command("sh", {
    args: ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjpeg-turbo-progs"],
    stdout: "null",
  }).output();
  if (!install.success) throw new Error("cjpeg is missing and libjpeg-turbo-progs could not be installed");
}

/** cjpeg's `-sample` (luma sampling factors): 2x2 = 4:2:0, 2x1 = 4:2:2, 1x1 = 4:4:4. */
export type CjpegSample = "2x2" | "2x1" | "1x1";

/**
 * cjpeg's arguments. Without `sample`, cjpeg's default for colour input is 2x2 (4:2:0): checked on this
 * corpus, `-sample 2x2` writes byte-identical files; on grey input it changes only the SOF's sampling byte.
 */
export function cjpegArgs(quality: number, optimize = false, sample?: CjpegSample): string[] {
  return ["-quality", String(quality), ...(optimize ? ["-optimize"] : []), ...(sample ? ["-sample", sample] : [])];
}

/**
 * Encodes with cjpeg (baseline, standard Huffman unless `optimize`): a JPEG input goes through
 * `djpeg | cjpeg`, a PNM (P5/P6, e.g. bench/pixels.ts `pnm`) straight to cjpeg.
 */
export async function cjpeg(
  input: Uint8Array,
  quality: number,
  optimize = false,
  sample?: CjpegSample,
): Promise<Uint8Array> {
  const args = cjpegArgs(quality, optimize, sample).join(" ");
  const isJpeg = input[0] === 0xff && input[1] === 0xd8;
  const child = new Deno.Command("sh", {
    args: ["-c", isJpeg ? `djpeg | cjpeg ${args}` : `cjpeg ${args}`],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  // Read while writing: with a big input the pipes fill up and a write-then-read would deadlock.
  const output = child.output();
  const writer = child.stdin.getWriter();
  await writer.write(input);
  await writer.close();
  const { stdout, success } = await output;
  if (!success) throw new Error("cjpeg failed");
  return stdout;
}

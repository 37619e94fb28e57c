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

/**
 * Re-encodes a JPEG with `djpeg | cjpeg -quality q` (cjpeg defaults: 4:2:0, baseline, standard Huffman;
 * `optimize`: `-optimize`, optimised Huffman tables).
 */
export async function cjpeg(bytes: Uint8Array, quality: number, optimize = false): Promise<Uint8Array> {
  const child = new Deno.Command("sh", {
    args: ["-c", `djpeg | cjpeg -quality ${quality}${optimize ? " -optimize" : ""}`],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  // Read while writing: with a big input the pipes fill up and a write-then-read would deadlock.
  const output = child.output();
  const writer = child.stdin.getWriter();
  await writer.write(bytes);
  await writer.close();
  const { stdout, success } = await output;
  if (!success) throw new Error("cjpeg failed");
  return stdout;
}

/**
 * Lossless JPEG ⇄ JPEG XL through our libjxl build (codecs/jxl/): the committed module, byte-identical round trips
 * on JPEGs of every kind (made here from a corpus photo with Debian's cjpeg, plus fixtures and corpus photos),
 * Debian's libjxl 0.7 tools on either side of ours, effort, and the refusals with their errors.
 *
 * Needs Debian's cjpeg/djpeg (libjpeg-turbo-progs) and cjxl/djxl (libjxl-tools), both installed by .ci/run.
 * Without cjxl/djxl the assertions that use them are skipped with a warning; under CI=true they fail instead.
 */
import assert from "node:assert/strict";
import { ensureCorpus, PUBLIC_CORPUS_DIR } from "../../bench/corpus.ts";
import { inspectJpeg } from "../../codecs/mod.ts";
import { joinIcc } from "../../codecs/container/icc.ts";
import { CodecError } from "../../codecs/errors.ts";
import {
  type JxlFailure,
  jxlModule,
  JxlTranscodeError,
  type JxlTranscoder,
  loadJxlTranscoder,
} from "../../codecs/jxl/transcode.ts";
import { fixture } from "./helpers.ts";

const IN_CI = Deno.env.get("CI") === "true";
const transcoder = loadJxlTranscoder(jxlModule());

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new Uint8Array(bytes));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Runs a tool with `stdin` as its input. */
async function spawn(command: string, args: string[], stdin?: Uint8Array): Promise<Deno.CommandOutput> {
  const child = new Deno.Command(command, {
    args,
    stdin: stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Written while the output is read: a tool blocks on a full stdout pipe before it has read all its input.
  const writer = stdin ? child.stdin.getWriter() : null;
  const writing = writer?.write(stdin!).then(() => writer.close());
  const output = await child.output();
  await writing;
  return output;
}

/** Runs a Debian tool; its stdout. Fails the test with its stderr when it fails. */
async function tool(command: string, args: string[], stdin?: Uint8Array): Promise<Uint8Array> {
  const { code, stdout, stderr } = await spawn(command, args, stdin);
  assert.equal(code, 0, `${command} ${args.join(" ")}: ${new TextDecoder().decode(stderr)}`);
  return stdout;
}

async function hasTool(command: string): Promise<boolean> {
  const { success } = await new Deno.Command("sh", { args: ["-c", `command -v ${command}`], stdout: "null" }).output();
  return success;
}

/** True when `command` is there; otherwise warns that the assertion is skipped (fails under CI=true). */
async function need(command: string, what: string): Promise<boolean> {
  if (await hasTool(command)) return true;
  const message = `${command} is missing (apt-get install libjxl-tools): ${what} not checked`;
  if (IN_CI) assert.fail(message);
  console.warn(`SKIPPED: ${message}`);
  return false;
}

async function withTempDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "jxl-transcode-" });
  try {
    return await use(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function corpusPhoto(name: string): Promise<Uint8Array> {
  return await Deno.readFile(new URL(name, await ensureCorpus(PUBLIC_CORPUS_DIR)));
}

/** Storm (1920×1280) at a quarter of its size as PPM: the pixels every cjpeg variant below encodes. */
let stormPpm: Promise<Uint8Array> | null = null;
const smallPhoto = () =>
  stormPpm ??= corpusPhoto("A03-mate-Storm.jpg").then((jpeg) => tool("djpeg", ["-scale", "1/4"], jpeg));
const cjpeg = async (...args: string[]) => tool("cjpeg", args, await smallPhoto());

/** A cjpeg JPEG with an ICC profile (cjpeg -icc) and an EXIF segment (spliced in after SOI) from the fixtures. */
async function withExifAndIcc(dir: string): Promise<Uint8Array> {
  const icc = inspectJpeg(await fixture("icc-adobergb.jpg")).segments.filter((s) => s.marker === 0xe2);
  const profile = `${dir}/profile.icc`;
  await Deno.writeFile(profile, joinIcc(icc));
  const jpeg = await cjpeg("-quality", "90", "-icc", profile);
  const exifSource = await fixture("exif-gps.jpg");
  const exif = inspectJpeg(exifSource).segments.find((s) => s.marker === 0xe1)!;
  const out = new Uint8Array(jpeg.length + exif.end - exif.start);
  out.set(jpeg.subarray(0, 2));
  out.set(exifSource.subarray(exif.start, exif.end), 2);
  out.set(jpeg.subarray(2), 2 + exif.end - exif.start);
  const kinds = inspectJpeg(out).metadata;
  assert.ok(kinds.includes("exif") && kinds.includes("icc"), kinds.join());
  return out;
}

/** Every kind of JPEG we take, by name. */
async function variants(dir: string): Promise<Map<string, Uint8Array>> {
  const made = new Map<string, Uint8Array>([
    ["baseline q85", await cjpeg("-quality", "85")],
    ["baseline optimized", await cjpeg("-quality", "75", "-optimize")],
    ["progressive", await cjpeg("-quality", "85", "-progressive")],
    ["grayscale", await cjpeg("-quality", "85", "-grayscale")],
    ["4:4:4", await cjpeg("-quality", "95", "-sample", "1x1")],
    ["4:2:2", await cjpeg("-quality", "90", "-sample", "2x1")],
    ["restart markers every MCU row", await cjpeg("-quality", "85", "-restart", "1")],
    ["restart markers every 3 blocks, progressive", await cjpeg("-quality", "80", "-restart", "3B", "-progressive")],
    ["q100", await cjpeg("-quality", "100", "-sample", "1x1")],
    ["EXIF and ICC", await withExifAndIcc(dir)],
    ["fixture: EXIF, GPS, XMP, IPTC, ICC, comment", await fixture("metadata-all.jpg")],
    ["fixture: EXIF orientation 6", await fixture("orientation-6.jpg")],
  ]);
  const info = (name: string) => inspectJpeg(made.get(name)!);
  assert.equal(info("progressive").sofMarker, 0xc2);
  assert.equal(info("grayscale").components.length, 1);
  assert.equal(info("4:4:4").chromaSubsampling, "4:4:4");
  assert.equal(info("4:2:2").chromaSubsampling, "4:2:2");
  assert.ok(info("restart markers every MCU row").segments.some((s) => s.marker === 0xdd), "a DRI segment");
  return made;
}

const JXL_CONTAINER = [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a];

/** The container's top-level box types, in order. */
function boxTypes(jxl: Uint8Array): string[] {
  const types: string[] = [];
  const view = new DataView(jxl.buffer, jxl.byteOffset, jxl.byteLength);
  for (let at = 0; at + 8 <= jxl.length;) {
    const size = view.getUint32(at);
    types.push(new TextDecoder().decode(jxl.subarray(at + 4, at + 8)));
    if (size === 0) break;
    at += size === 1 ? Number(view.getBigUint64(at + 8)) : size;
  }
  return types;
}

/** Asserts a round trip through `t` gives the same bytes; the .jxl. */
async function roundTrip(t: JxlTranscoder, name: string, jpeg: Uint8Array, effort?: number): Promise<Uint8Array> {
  const jxl = t.jpegToJxl(jpeg, effort);
  assert.deepEqual(Array.from(jxl.subarray(0, 12)), JXL_CONTAINER, `${name}: a JPEG XL container`);
  assert.ok(boxTypes(jxl).includes("jbrd"), `${name}: JPEG reconstruction data (jbrd box): ${boxTypes(jxl)}`);
  const back = t.jxlToJpeg(jxl);
  assert.equal(await sha256(back), await sha256(jpeg), `${name}: restored byte for byte`);
  return jxl;
}

function assertFailure(run: () => unknown, failure: JxlFailure, code: string, message: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof JxlTranscodeError, String(error));
    assert.ok(error instanceof CodecError);
    assert.equal(error.failure, failure);
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
}

Deno.test("the committed jxl.wasm matches the sha256 recorded beside it", async () => {
  const dir = new URL("../../codecs/jxl/", import.meta.url);
  const [recorded, name] = (await Deno.readTextFile(new URL("jxl.wasm.sha256", dir))).trim().split(/\s+/);
  assert.equal(name, "jxl.wasm");
  assert.match(recorded!, /^[0-9a-f]{64}$/);
  assert.equal(await sha256(await Deno.readFile(new URL("jxl.wasm", dir))), recorded);
});

Deno.test("the module imports only five WASI calls and exports the transcoder's entry points", () => {
  const module = jxlModule();
  assert.deepEqual(
    WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}`).sort(),
    ["fd_close", "fd_fdstat_get", "fd_seek", "fd_write", "proc_exit"].map((n) => `wasi_snapshot_preview1.${n}`),
  );
  assert.deepEqual(
    WebAssembly.Module.exports(module).map((e) => e.name).sort(),
    ["_initialize", "jpeg_from_jxl", "jxl_alloc_failed", "jxl_free", "jxl_from_jpeg", "jxl_malloc", "memory"],
  );
});

Deno.test("baseline, progressive, grayscale, 4:4:4, 4:2:2, restart markers and metadata JPEGs come back byte for byte", async () => {
  await withTempDir(async (dir) => {
    for (const [name, jpeg] of await variants(dir)) {
      const jxl = await roundTrip(transcoder, name, jpeg);
      assert.ok(jxl.length < jpeg.length, `${name}: ${jxl.length} bytes as JPEG XL, ${jpeg.length} as JPEG`);
    }
  });
});

Deno.test("corpus photos (ICC, grayscale, EXIF-rotated) come back byte for byte, each 15% smaller or more as JPEG XL", async () => {
  // Measured at effort 7: Aqua −24.5%, ColorfulCups (ICC) −18.4%, Grey −25.0%, friends (orientation 6) −20.0%.
  for (
    const name of [
      "A01-mate-Aqua.jpg",
      "A06-kde-ColorfulCups-icc.jpg",
      "A08-kde-Grey-grayscale.jpg",
      "A13-lomiri-friends-orient6.jpg",
    ]
  ) {
    const jpeg = await corpusPhoto(name);
    const jxl = await roundTrip(transcoder, name, jpeg);
    const saving = 1 - jxl.length / jpeg.length;
    assert.ok(saving >= 0.15, `${name}: ${(saving * 100).toFixed(1)}% smaller`);
  }
});

Deno.test("effort changes the JPEG XL's size but never the JPEG it restores", async () => {
  const jpeg = await corpusPhoto("A03-mate-Storm.jpg");
  const sizes: Record<number, number> = {};
  for (const effort of [1, 7, 9]) {
    sizes[effort] = (await roundTrip(transcoder, `effort ${effort}`, jpeg, effort)).length;
  }
  // Measured: 1 → 641,325 bytes (67 ms), 7 → 570,614 (99 ms; 3-6 give the same bytes), 9 → 567,143 (1.4 s).
  assert.ok(sizes[1]! > sizes[7]! && sizes[7]! > sizes[9]!, JSON.stringify(sizes));
  assert.equal(transcoder.jpegToJxl(jpeg).length, sizes[7], "the default effort is 7");
});

Deno.test("Debian's djxl rebuilds the identical JPEG from our .jxl and decodes its pixels", async () => {
  if (!await need("djxl", "djxl reading our .jxl")) return;
  await withTempDir(async (dir) => {
    for (
      const [name, jpeg] of [["progressive", await cjpeg("-progressive")], [
        "Aqua",
        await corpusPhoto("A01-mate-Aqua.jpg"),
      ]] as const
    ) {
      await Deno.writeFile(`${dir}/ours.jxl`, transcoder.jpegToJxl(jpeg));
      await tool("djxl", [`${dir}/ours.jxl`, `${dir}/restored.jpg`]);
      assert.equal(await sha256(await Deno.readFile(`${dir}/restored.jpg`)), await sha256(jpeg), name);
      await tool("djxl", [`${dir}/ours.jxl`, `${dir}/pixels.ppm`]);
      const { width, height } = inspectJpeg(jpeg);
      const header = new TextDecoder().decode((await Deno.readFile(`${dir}/pixels.ppm`)).subarray(0, 20));
      assert.match(header, new RegExp(`^P6\\s+${width}\\s+${height}\\s`), name);
    }
  });
});

Deno.test("our jxlToJpeg restores Debian cjxl's lossless transcode byte for byte", async () => {
  if (!await need("cjxl", "cjxl's output read by us")) return;
  await withTempDir(async (dir) => {
    for (
      const [name, jpeg] of [["4:4:4", await cjpeg("-sample", "1x1")], [
        "Storm",
        await corpusPhoto("A03-mate-Storm.jpg"),
      ]] as const
    ) {
      await Deno.writeFile(`${dir}/in.jpg`, jpeg);
      await tool("cjxl", [`${dir}/in.jpg`, `${dir}/native.jxl`, "--quiet"]);
      const native = await Deno.readFile(`${dir}/native.jxl`);
      assert.equal(await sha256(transcoder.jxlToJpeg(native)), await sha256(jpeg), name);
      // Ours and cjxl 0.7's differ in bytes, not much in size (measured: Storm 570,614 against 570,107).
      const ours = transcoder.jpegToJxl(jpeg).length;
      assert.ok(Math.abs(ours / native.length - 1) < 0.05, `${name}: ours ${ours}, cjxl ${native.length}`);
    }
  });
});

Deno.test("JPEGs libjxl cannot carry are refused as such: arithmetic-coded, CMYK, lossless and 12-bit frame headers", async () => {
  const made = await spawn("cjpeg", ["-arithmetic"], await smallPhoto());
  const unsupported = /^This JPEG cannot be transcoded to JPEG XL losslessly: arithmetic-coded, lossless/;
  if (made.success) {
    assert.equal(inspectJpeg(made.stdout).sofMarker, 0xc9, "SOF9: arithmetic-coded");
    assertFailure(() => transcoder.jpegToJxl(made.stdout), "unsupported_jpeg", "unsupported_format", unsupported);
  } else {
    console.warn("SKIPPED: this cjpeg cannot write arithmetic-coded JPEGs");
  }
  const cmyk = await fixture("cmyk.jpg");
  assert.equal(inspectJpeg(cmyk).components.length, 4);
  assertFailure(() => transcoder.jpegToJxl(cmyk), "unsupported_jpeg", "unsupported_format", unsupported);
  // cjpeg writes neither lossless nor 12-bit files: the same JPEG with its frame header saying so.
  const base = await fixture("base.jpg");
  const sof = inspectJpeg(base).segments.find((s) => s.marker === 0xc0)!;
  const lossless = base.slice();
  lossless[sof.start + 1] = 0xc3;
  assertFailure(() => transcoder.jpegToJxl(lossless), "unsupported_jpeg", "unsupported_format", unsupported);
  const twelveBit = base.slice();
  twelveBit[sof.start + 4] = 12;
  assertFailure(() => transcoder.jpegToJxl(twelveBit), "unsupported_jpeg", "unsupported_format", unsupported);
});

Deno.test("what is not a whole JPEG is refused: random bytes, a PNG, an empty file, a truncated or damaged JPEG, a huge header", async () => {
  const random = crypto.getRandomValues(new Uint8Array(5000));
  random[0] = 0x42;
  const notJpeg = /^The file is not a JPEG/;
  for (const input of [random, new Uint8Array(0), await fixture("png-renamed.jpg")]) {
    assertFailure(() => transcoder.jpegToJxl(input), "not_jpeg", "unsupported_format", notJpeg);
  }
  const damaged = /^The JPEG is damaged or incomplete/;
  const photo = await corpusPhoto("A01-mate-Aqua.jpg");
  for (
    const input of [
      await fixture("truncated.jpg"),
      await fixture("header-only.jpg"),
      await fixture("corrupt-scan.jpg"),
      photo.subarray(0, photo.length >> 1),
    ]
  ) {
    assertFailure(() => transcoder.jpegToJxl(input), "corrupt_jpeg", "corrupt_image", damaged);
  }
  // 60000 × 60000 declared: refused before libjxl sizes buffers that 32-bit WebAssembly cannot hold.
  const huge = await fixture("huge-dimensions.jpg");
  assertFailure(() => transcoder.jpegToJxl(huge), "too_large", "too_many_pixels", /too large/);
  for (const effort of [0, 11, 1.5, NaN]) {
    assertFailure(() => transcoder.jpegToJxl(photo, effort), "bad_argument", "invalid_settings", /effort/);
  }
});

Deno.test("a JPEG XL that cannot give a JPEG back is refused: truncated, damaged, not JPEG XL, encoded from pixels", async () => {
  const jxl = transcoder.jpegToJxl(await corpusPhoto("A03-mate-Storm.jpg"));
  const incomplete = /^The JPEG XL file is incomplete/;
  for (const length of [1, 12, 40, 1000, jxl.length >> 1, jxl.length - 1]) {
    assertFailure(() => transcoder.jxlToJpeg(jxl.subarray(0, length)), "truncated_jxl", "corrupt_image", incomplete);
  }
  const damaged = jxl.slice();
  damaged.fill(0x55, 5000, 5100);
  assertFailure(() => transcoder.jxlToJpeg(damaged), "invalid_jxl", "corrupt_image", /^The JPEG XL file is damaged/);
  const notJxl = /^The file is not a JPEG XL image/;
  const jpeg = await fixture("base.jpg");
  assertFailure(() => transcoder.jxlToJpeg(jpeg), "not_jxl", "unsupported_format", notJxl);
  assertFailure(() => transcoder.jxlToJpeg(new Uint8Array(0)), "not_jxl", "unsupported_format", notJxl);
  const random = crypto.getRandomValues(new Uint8Array(5000));
  random[0] = 0x42;
  assertFailure(() => transcoder.jxlToJpeg(random), "not_jxl", "unsupported_format", notJxl);

  if (!await need("cjxl", "a pixel-encoded .jxl")) return;
  await withTempDir(async (dir) => {
    await Deno.writeFile(`${dir}/in.jpg`, await cjpeg("-quality", "90"));
    // --lossless_jpeg=0: cjxl decodes the JPEG and encodes its pixels (VarDCT), with no reconstruction data.
    await tool("cjxl", [`${dir}/in.jpg`, `${dir}/pixels.jxl`, "--lossless_jpeg=0", "--quiet"]);
    const pixels = await Deno.readFile(`${dir}/pixels.jxl`);
    assert.ok(!boxTypes(pixels).includes("jbrd"));
    assertFailure(
      () => transcoder.jxlToJpeg(pixels),
      "no_reconstruction",
      "unsupported_format",
      /^This JPEG XL file was not made from a JPEG \(it has no JPEG reconstruction data\)/,
    );
  });
});

Deno.test("after every kind of error the same transcoder, and a fresh one, still transcode the next file identically", async () => {
  const jpeg = await cjpeg("-quality", "85", "-progressive");
  const t = loadJxlTranscoder(jxlModule());
  const before = t.jpegToJxl(jpeg);
  const [cmyk, corrupt, huge] = await Promise.all(["cmyk.jpg", "corrupt-scan.jpg", "huge-dimensions.jpg"].map(fixture));
  const failures: Array<() => unknown> = [
    () => t.jpegToJxl(cmyk!),
    () => t.jpegToJxl(corrupt!),
    () => t.jpegToJxl(huge!),
    () => t.jpegToJxl(jpeg, 0),
    () => t.jxlToJpeg(before.subarray(0, before.length >> 1)),
    () => t.jxlToJpeg(jpeg),
  ];
  for (const fail of failures) {
    assert.throws(fail, JxlTranscodeError);
    const again = t.jpegToJxl(jpeg);
    assert.equal(await sha256(again), await sha256(before), "the same .jxl as before the error");
    assert.equal(await sha256(t.jxlToJpeg(again)), await sha256(jpeg));
  }
  const fresh = loadJxlTranscoder(jxlModule());
  assert.equal(await sha256(fresh.jpegToJxl(jpeg)), await sha256(before), "a fresh instance makes the same bytes");
});

Deno.test("memoryBytes reports the instance's memory: it grows with the largest image, never shrinks, and reset drops it", async () => {
  const t = loadJxlTranscoder(jxlModule());
  assert.equal(t.memoryBytes(), 0, "no instance before the first call");
  const small = await cjpeg("-quality", "85");
  t.jpegToJxl(small);
  const afterSmall = t.memoryBytes();
  assert.ok(afterSmall > 0);
  const photo = await corpusPhoto("A03-mate-Storm.jpg");
  t.jpegToJxl(photo);
  const afterPhoto = t.memoryBytes();
  // Measured: about 55 bytes per pixel while encoding (147 MiB for Storm's 2.46 MP).
  const { width, height } = inspectJpeg(photo);
  assert.ok(afterPhoto - afterSmall > 30 * width * height, `${afterSmall} → ${afterPhoto} bytes`);
  t.jpegToJxl(small);
  assert.equal(t.memoryBytes(), afterPhoto, "wasi-libc never gives memory back");
  t.reset();
  assert.equal(t.memoryBytes(), 0);
  assert.equal(await sha256(t.jxlToJpeg(t.jpegToJxl(small))), await sha256(small), "the next call instantiates afresh");
  assert.ok(t.memoryBytes() < afterPhoto);
});

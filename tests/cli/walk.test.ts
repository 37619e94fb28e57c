import assert from "node:assert/strict";
import { join } from "node:path";
import { CliError, UsageError } from "../../cli/args.ts";
import { isJpegName, outputName, planFiles } from "../../cli/walk.ts";

/** A temp folder with `files` (relative paths → contents); removed after `fn`. */
async function withTree(files: Record<string, string>, fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cli-walk-" });
  try {
    for (const [rel, text] of Object.entries(files)) {
      await Deno.mkdir(join(dir, rel, ".."), { recursive: true });
      await Deno.writeTextFile(join(dir, rel), text);
    }
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const TREE = {
  "in/a.jpg": "aaaa",
  "in/B.JPEG": "bb",
  "in/notes.txt": "not an image",
  "in/raw.png": "png",
  "in/x/y/c.Jpg": "ccc",
  "in/x/z.jpeg.bak": "no",
  "in/x/empty/.keep": "",
  "loose.jpg": "l",
};

Deno.test("walk: folders recursively, only .jpg/.jpeg in any case, their layout kept under --out", async () => {
  await withTree(TREE, async (dir) => {
    const input = join(dir, "in");
    const out = join(dir, "out");
    const plan = await planFiles({ paths: [input, join(dir, "loose.jpg")], out, inPlace: false });
    assert.deepEqual(plan.map((f) => [f.input, f.output, f.size]), [
      [join(input, "B.JPEG"), join(out, "B.JPEG"), 2],
      [join(input, "a.jpg"), join(out, "a.jpg"), 4],
      [join(input, "x/y/c.Jpg"), join(out, "x/y/c.Jpg"), 3],
      [join(dir, "loose.jpg"), join(out, "loose.jpg"), 1], // a file named directly: --out/its-name
    ]);
  });
});

Deno.test("walk: WebP results get .webp names; a file named twice is sent once", async () => {
  await withTree(TREE, async (dir) => {
    const input = join(dir, "in");
    const plan = await planFiles({
      paths: [input, join(input, "a.jpg")],
      out: join(dir, "out"),
      inPlace: false,
      format: "webp",
    });
    assert.deepEqual(plan.map((f) => f.output), ["B.webp", "a.webp", "x/y/c.webp"].map((n) => join(dir, "out", n)));
  });
  assert.equal(outputName("a/b.jpeg", "webp"), "a/b.webp");
  assert.equal(outputName("a/b.jpeg", "jpeg"), "a/b.jpeg");
  assert.equal(outputName("photo", "webp"), "photo.webp");
  assert.ok(isJpegName("X.JPG") && isJpegName("y.jpeg") && !isJpegName("z.jpe") && !isJpegName("jpg"));
});

Deno.test("walk: an --out inside the input folder is not walked (a second run does not compress results)", async () => {
  await withTree({ ...TREE, "in/small/a.jpg": "old result" }, async (dir) => {
    const input = join(dir, "in");
    const plan = await planFiles({ paths: [input], out: join(input, "small"), inPlace: false });
    assert.ok(plan.every((f) => !f.input.includes("small")), plan.map((f) => f.input).join());
    assert.equal(plan.length, 3);
  });
});

Deno.test("walk: never over an input without --in-place", async () => {
  await withTree(TREE, async (dir) => {
    const input = join(dir, "in");
    // --out is the input folder itself (also through a different spelling of it).
    for (const out of [input, `${input}/`, join(input, "x", "..")]) {
      await assert.rejects(
        planFiles({ paths: [input], out, inPlace: false }),
        (err: Error) => err instanceof UsageError && /is the input folder/.test(err.message),
      );
    }
    // A file given directly whose --out/its-name is itself.
    await assert.rejects(
      planFiles({ paths: [join(input, "a.jpg")], out: input, inPlace: false }),
      (err: Error) => err instanceof UsageError && /a\.jpg is an input: its result would replace it/.test(err.message),
    );
    // A folder's results go to --out, and a file given alongside sits in --out already.
    await assert.rejects(
      planFiles({ paths: [input, join(dir, "loose.jpg")], out: dir, inPlace: false }),
      (err: Error) => err instanceof UsageError && /loose\.jpg is an input/.test(err.message),
    );
    // Through a symlink: the output path exists and leads to an input.
    await Deno.mkdir(join(dir, "out"));
    await Deno.symlink(join(input, "a.jpg"), join(dir, "out", "a.jpg"));
    await assert.rejects(
      planFiles({ paths: [input], out: join(dir, "out"), inPlace: false }),
      (err: Error) => err instanceof UsageError && /is an input/.test(err.message),
    );
  });
});

Deno.test("walk: two inputs that would share an output are refused", async () => {
  await withTree({ "one/p.jpg": "1", "two/p.jpg": "2", "three/q.jpg": "3", "three/q.jpeg": "4" }, async (dir) => {
    await assert.rejects(
      planFiles({ paths: [join(dir, "one"), join(dir, "two")], out: join(dir, "out"), inPlace: false }),
      (err: Error) =>
        err instanceof UsageError && /one\/p\.jpg and .*two\/p\.jpg would both be written to/.test(err.message),
    );
    // q.jpg and q.jpeg both become q.webp.
    await assert.rejects(
      planFiles({ paths: [join(dir, "three")], out: join(dir, "out"), inPlace: false, format: "webp" }),
      /would both be written to .*q\.webp/,
    );
  });
});

Deno.test("walk: --in-place writes each input over itself", async () => {
  await withTree(TREE, async (dir) => {
    const input = join(dir, "in");
    const plan = await planFiles({ paths: [input], out: null, inPlace: true });
    assert.equal(plan.length, 3);
    assert.ok(plan.every((f) => f.output === f.input));
  });
});

Deno.test("walk: a missing path is a usage error; nothing to compress is an error", async () => {
  await withTree({ "docs/readme.txt": "x" }, async (dir) => {
    await assert.rejects(
      planFiles({ paths: [join(dir, "nope")], out: join(dir, "out"), inPlace: false }),
      (err: Error) => err instanceof UsageError && /No such file or folder/.test(err.message),
    );
    await assert.rejects(
      planFiles({ paths: [join(dir, "docs")], out: join(dir, "out"), inPlace: false }),
      (err: Error) =>
        err instanceof CliError && !(err instanceof UsageError) && /No \.jpg or \.jpeg files/.test(err.message),
    );
  });
});

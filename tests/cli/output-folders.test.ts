/**
 * Issue 29 (L3): where results are written. Names up to the 255-byte limit work (the temporary name does not grow
 * with the output's), and a folder the CLI cannot write in fails its files before they are sent, so the server never
 * compresses (and counts) a result that would be lost.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { compressed, fakeJpeg, startFakeApi } from "./fake-api.ts";
import { filesUnder, run, withDir } from "./in-process.ts";

Deno.test("output folders: names of 241, 250 and 255 bytes are compressed in place and into --out", async () => {
  const api = startFakeApi((req) => compressed(fakeJpeg(100 + req.bytes.length % 7), req.bytes.length));
  try {
    await withDir(async (dir) => {
      const names = [241, 250, 255].map((bytes) => `${"n".repeat(bytes - 4)}.jpg`);
      await Deno.mkdir(join(dir, "in"));
      for (const [i, name] of names.entries()) await Deno.writeFile(join(dir, "in", name), fakeJpeg(1000 + i));

      const out = await run(["compress", join(dir, "in"), "--out", join(dir, "out"), "--url", api.url]);
      assert.equal(out.code, 0, out.stdout);
      assert.deepEqual(await filesUnder(join(dir, "out")), [...names].sort());

      const inPlace = await run(["compress", join(dir, "in"), "--in-place", "--url", api.url]);
      assert.equal(inPlace.code, 0, inPlace.stdout);
      assert.deepEqual(await filesUnder(join(dir, "in")), [...names].sort(), "no temporary files left");
      for (const [i, name] of names.entries()) {
        assert.deepEqual(await Deno.readFile(join(dir, "in", name)), fakeJpeg(100 + (1000 + i) % 7));
      }
    });
  } finally {
    await api.close();
  }
});

/**
 * Makes `dir` unwritable for this process, resolving to the undo: chmod for a user, the immutable attribute for
 * root (whom chmod does not stop); null where neither is possible.
 */
async function makeReadOnly(dir: string): Promise<(() => Promise<void>) | null> {
  if (Deno.build.os === "windows") return null;
  if (Deno.uid() !== 0) {
    await Deno.chmod(dir, 0o555);
    return () => Deno.chmod(dir, 0o755);
  }
  const chattr = (flag: string) =>
    new Deno.Command("chattr", { args: [flag, dir], stdout: "null", stderr: "null" }).output()
      .then((o) => o.success, () => false);
  if (!await chattr("+i")) return null;
  return async () => void await chattr("-i");
}

/** Whether makeReadOnly works here (a file then cannot be made in the folder). */
const canMakeReadOnly = await (async () => {
  const dir = await Deno.makeTempDir({ prefix: "cli-ro-probe-" });
  try {
    const undo = await makeReadOnly(dir);
    if (!undo) return false;
    const writable = await Deno.writeTextFile(join(dir, "x"), "x").then(() => true, () => false);
    await undo();
    return !writable;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
})();

Deno.test({
  name: "output folders: --in-place in a read-only folder fails each file before it is sent",
  ignore: !canMakeReadOnly,
  async fn() {
    const api = startFakeApi((req) => compressed(fakeJpeg(100), req.bytes.length));
    try {
      await withDir(async (dir) => {
        const original = fakeJpeg(1000);
        await Deno.mkdir(join(dir, "in"));
        await Deno.writeFile(join(dir, "in", "photo.jpg"), original);
        const undo = (await makeReadOnly(join(dir, "in")))!;
        try {
          const r = await run(["compress", join(dir, "in"), "--in-place", "--url", api.url]);
          assert.equal(r.code, 1, r.stdout);
          assert.match(r.stdout, /photo\.jpg {2}failed: Cannot write in .*\/in: .+; it was not sent\n/);
          assert.equal(api.requests.length, 0, "nothing sent, nothing charged");
        } finally {
          await undo();
        }
        assert.deepEqual(await filesUnder(join(dir, "in")), ["photo.jpg"]);
        assert.deepEqual(await Deno.readFile(join(dir, "in", "photo.jpg")), original);
      });
    } finally {
      await api.close();
    }
  },
});

Deno.test("output folders: an --out that cannot be made (a file in its path) fails each file before it is sent", async () => {
  const api = startFakeApi((req) => compressed(fakeJpeg(100), req.bytes.length));
  try {
    await withDir(async (dir) => {
      await Deno.mkdir(join(dir, "in"));
      await Deno.writeFile(join(dir, "in", "a.jpg"), fakeJpeg(1000));
      await Deno.writeFile(join(dir, "in", "b.jpg"), fakeJpeg(1001));
      await Deno.writeTextFile(join(dir, "not-a-folder"), "");
      const out = join(dir, "not-a-folder", "small");
      const r = await run(["compress", join(dir, "in"), "--out", out, "--url", api.url]);
      assert.equal(r.code, 1, r.stdout);
      for (const name of ["a.jpg", "b.jpg"]) {
        assert.match(
          r.stdout,
          new RegExp(`${name.replace(".", "\\.")} {2}failed: Cannot write in .*; it was not sent\n`),
        );
      }
      assert.equal(api.requests.length, 0, "nothing sent, nothing charged");
      assert.deepEqual(await filesUnder(dir), ["in/a.jpg", "in/b.jpg", "not-a-folder"], "no probe left behind");
    });
  } finally {
    await api.close();
  }
});

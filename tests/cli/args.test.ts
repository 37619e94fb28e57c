import assert from "node:assert/strict";
import { type CompressOptions, parseCommand, parseTarget, settingsQuery, UsageError } from "../../cli/args.ts";
import { QUALITY_RANGE, TARGET_KB_RANGE, TARGET_SCORE_RANGE } from "../../contract/settings.ts";
import { KEY } from "./fake-api.ts";

const env = { SQUEEZE_API_KEY: KEY };

function options(argv: string[], e: Record<string, string | undefined> = env): CompressOptions {
  const command = parseCommand(argv, e);
  assert.equal(command.kind, "compress");
  return (command as { options: CompressOptions }).options;
}

function refused(argv: string[], pattern: RegExp, e: Record<string, string | undefined> = env): void {
  assert.throws(() => parseCommand(argv, e), (err: Error) => {
    assert.ok(err instanceof UsageError, `a UsageError, got ${err}`);
    assert.equal(err.exitCode, 2);
    assert.match(err.message, pattern);
    return true;
  });
}

Deno.test("args: defaults, the environment's key and URL, flags in either form", () => {
  const o = options(["compress", "a.jpg", "photos", "--out", "small"]);
  assert.deepEqual(o.paths, ["a.jpg", "photos"]);
  assert.equal(o.out, "small");
  assert.equal(o.inPlace, false);
  assert.equal(o.concurrency, 2);
  assert.equal(o.json, false);
  assert.equal(o.key, KEY);
  assert.equal(o.url, "http://localhost:8000");
  assert.equal(o.quality, undefined);
  assert.equal(settingsQuery(o).toString(), "", "only the settings given are sent");

  const all = options(
    [
      "compress",
      "--quality=70",
      "photos",
      "--target",
      "size:200",
      "--format",
      "JPEG",
      "--encoder",
      "jpegli",
      "--json",
      "--concurrency",
      "8",
      "--out",
      "o",
      "--url",
      "https://squeeze.example/",
    ],
    { SQUEEZE_API_KEY: KEY, SQUEEZE_API_URL: "http://ignored:1" },
  );
  assert.equal(all.url, "https://squeeze.example", "--url wins over the environment, without its trailing slash");
  assert.equal(all.json, true);
  assert.equal(all.concurrency, 8);
  assert.equal(settingsQuery(all).toString(), "quality=70&target=size%3A200&format=jpeg&encoder=jpegli");

  assert.equal(
    options(["compress", "p", "--out", "o"], { ...env, SQUEEZE_API_URL: "http://h:9000" }).url,
    "http://h:9000",
  );
  const flagKey = `${KEY}zz`;
  assert.equal(options(["compress", "p", "--out", "o", "--key", flagKey]).key, flagKey, "--key wins");
  assert.deepEqual(parseCommand(["--help"], {}), { kind: "help" });
  assert.deepEqual(parseCommand(["compress", "-h"], {}), { kind: "help" });
});

Deno.test("args: --in-place needs no --out, refuses one, and refuses WebP", () => {
  const o = options(["compress", "photos", "--in-place"]);
  assert.equal(o.inPlace, true);
  assert.equal(o.out, null);
  refused(["compress", "photos", "--in-place", "--out", "x"], /--in-place replaces the inputs/);
  refused(["compress", "photos", "--in-place", "--format", "webp"], /--in-place .* cannot write WebP/);
  refused(["compress", "photos"], /--out DIR is required/);
});

Deno.test("args: settings are checked against the contract's names and ranges", () => {
  const base = ["compress", "p", "--out", "o"];
  for (const q of [String(QUALITY_RANGE.min), String(QUALITY_RANGE.max)]) {
    assert.equal(options([...base, "--quality", q]).quality, Number(q));
  }
  for (const q of [String(QUALITY_RANGE.min - 1), String(QUALITY_RANGE.max + 1), "7.5", "high", ""]) {
    refused([...base, "--quality", q], /--quality must be a whole number from 1 to 100/);
  }
  refused([...base, "--format", "png"], /--format must be one of jpeg, webp/);
  refused([...base, "--format", "auto", "--target", "size:200"], /--format auto chooses the smallest file at a score/);
  refused(["compress", "photos", "--in-place", "--format", "auto"], /--in-place .* cannot write another format/);
  refused([...base, "--archive"], /--archive keeps each upload itself as JPEG XL: add --format jxl/);
  assert.equal(options([...base, "--format", "jxl", "--archive"]).archive, true);
  refused(["restore", "a.jxl", "--out", "o", "--quality", "80"], /restore gives back the original JPEG: --quality/);
  refused(["restore", "a.jxl", "--in-place"], /restore gives back the original JPEG: --in-place/);
  refused(["restore", "a.jxl"], /--out DIR is required/);
  refused([...base, "--encoder", "libjpeg"], /--encoder must be one of mozjpeg, jpegli/);
  refused([...base, "--format", "webp", "--encoder", "jpegli"], /jpegli encodes JPEG only; use --encoder mozjpeg/);
  refused([...base, "--concurrency", "0"], /--concurrency must be a whole number from 1 to 8/);
  refused([...base, "--concurrency", "9"], /--concurrency/);
  assert.equal(options([...base, "--concurrency", "1"]).concurrency, 1);
  assert.equal(options(base).timeout, 120, "the default --timeout");
  assert.equal(options([...base, "--timeout", "5"]).timeout, 5);
  for (const t of ["0", "3601", "1.5", "soon"]) {
    refused([...base, "--timeout", t], /--timeout must be a whole number from 1 to 3600/);
  }
});

Deno.test("args: targets as the server reads them", () => {
  assert.equal(parseTarget("auto"), "auto");
  assert.equal(parseTarget("Size:200"), "size:200");
  assert.equal(parseTarget(`size:${TARGET_KB_RANGE.max}`), `size:${TARGET_KB_RANGE.max}`);
  assert.equal(parseTarget("score:85"), "score:85");
  assert.equal(parseTarget("score:82.5"), "score:82.5");
  for (const bad of ["size:0", `size:${TARGET_KB_RANGE.max + 1}`, "size:1.5"]) {
    assert.throws(() => parseTarget(bad), /size:KB takes 1 to 100000|must be auto, size:KB or score:S/);
  }
  for (const bad of [`score:${TARGET_SCORE_RANGE.min - 1}`, `score:${TARGET_SCORE_RANGE.max + 1}`]) {
    assert.throws(() => parseTarget(bad), /score:S takes 50 to 95/);
  }
  assert.throws(() => parseTarget("small"), UsageError);
});

Deno.test("args: usage errors: no command, unknown command or flag, no paths, no or foreign key, bad URL", () => {
  refused([], /Missing the command/);
  refused(["shrink", "a.jpg"], /Unknown command 'shrink'/);
  refused(["compress", "--out", "o"], /at least one file or folder/);
  refused(["compress", "p", "--out", "o", "--fast"], /Unknown option '--fast'/);
  refused(["compress", "p", "--out"], /--out/);
  refused(["compress", "p", "--out", "o"], /No API key: set SQUEEZE_API_KEY or pass --key/, {});
  refused(["compress", "p", "--out", "o", "--key", "sk_test_123"], /keys start with sq_live_/, {});
  refused(["compress", "p", "--out", "o", "--url", "localhost:8000"], /--url must be an http\(s\) URL/);
  refused(["compress", "p", "--out", "o", "--url", "ftp://x"], /--url must be an http\(s\) URL/);
});

Deno.test("args: --max-width, --max-height and --fit are checked and sent as the API's resize parameters", () => {
  const base = ["compress", "p", "--out", "o"];
  const o = options([...base, "--max-width", "1280", "--max-height", "720", "--fit", "cover"]);
  assert.deepEqual([o.maxWidth, o.maxHeight, o.fit], [1280, 720, "cover"]);
  assert.equal(settingsQuery(o).toString(), "maxWidth=1280&maxHeight=720&fit=cover");
  assert.equal(settingsQuery(options(base)).toString(), "", "nothing sent when not asked");
  refused([...base, "--max-width", "0"], /--max-width must be a whole number from 1 to 16384/);
  refused([...base, "--max-height", "20000"], /--max-height must be a whole number from 1 to 16384/);
  refused([...base, "--fit", "stretch"], /--fit must be one of inside, cover/);
});

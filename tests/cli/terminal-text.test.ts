/**
 * Issue 29 (L5): without --json, names and the server's messages reach the terminal with their control characters
 * escaped (a name with a newline stays on its line, an answer cannot retitle or clear the window or reorder the
 * line); --json keeps them exact, as JSON escapes them itself.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { escapeControls } from "../../cli/terminal-text.ts";
import { API_KEY_DISPLAY_LENGTH } from "../../contract/api-keys.ts";
import { KEY, startFakeApi } from "./fake-api.ts";
import { run, withDir } from "./in-process.ts";

/** Any character escapeControls escapes, raw. */
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

Deno.test("terminal text: C0, DEL, C1 as \\xHH, bidi formatting and line separators as \\uHHHH, the rest as it is", () => {
  assert.equal(escapeControls("a\nb\tc\rd\0e"), "a\\x0ab\\x09c\\x0dd\\x00e");
  assert.equal(escapeControls("\x1b]0;title\x07\x1b[2J"), "\\x1b]0;title\\x07\\x1b[2J");
  assert.equal(escapeControls("del\x7f c1\x85\x9b"), "del\\x7f c1\\x85\\x9b");
  assert.equal(
    escapeControls("\u202agpj\u202b\u202c\u202d\u202e.exe \u2066\u2067\u2068\u2069 \u2028\u2029"),
    "\\u202agpj\\u202b\\u202c\\u202d\\u202e.exe \\u2066\\u2067\\u2068\\u2069 \\u2028\\u2029",
  );
  assert.equal(escapeControls("a\u200eb\u200fc\u061cd"), "a\\u200eb\\u200fc\\u061cd", "the bidi marks");
  const plain = "Photos/été 2024/IMG_0001 (copie) \u00a0→ 📷 C:\\Users\\x.jpg";
  assert.equal(escapeControls(plain), plain, "letters, symbols, no-break space, emoji and backslashes stay");
});

const NAME = "new\nline\x1b[31m\u202egpj.jpg";
const SERVER_MESSAGE = "\x1b]0;pwned\x07\x1b[2Jnot a JPEG\u2066";
const ESCAPED_NAME = "new\\x0aline\\x1b[31m\\u202egpj.jpg";
const ESCAPED_MESSAGE = "\\x1b]0;pwned\\x07\\x1b[2Jnot a JPEG\\u2066";

Deno.test("terminal text: plain output escapes the file's name and the server's messages; --json keeps them", async () => {
  const api = startFakeApi((_req, i) =>
    i % 2 === 0
      ? Response.json({ error: `busy ${SERVER_MESSAGE}` }, { status: 503, headers: { "Retry-After": "0" } })
      : Response.json({ error: SERVER_MESSAGE }, { status: 415 })
  );
  try {
    await withDir(async (dir) => {
      await Deno.mkdir(join(dir, "in"));
      await Deno.writeFile(join(dir, "in", NAME), new Uint8Array([0xff, 0xd8, 0xff, 0xe0]));

      const plain = await run(["compress", join(dir, "in"), "--out", join(dir, "out"), "--url", api.url]);
      assert.equal(plain.code, 1);
      assert.doesNotMatch(plain.stdout, RAW_CONTROL);
      assert.doesNotMatch(plain.stderr, RAW_CONTROL);
      const lines = plain.stdout.split("\n");
      assert.equal(lines.length, 3, `the file's line, the totals, nothing after the last newline: ${plain.stdout}`);
      assert.equal(lines[0], `${join(dir, "in", ESCAPED_NAME)}  failed: ${ESCAPED_MESSAGE} (415)`);
      assert.equal(
        plain.stderr,
        `${join(dir, "in", ESCAPED_NAME)}: 503: busy ${ESCAPED_MESSAGE}; trying again in 0 s\n1 of 1 file failed\n`,
        "the retry's note on stderr too",
      );

      const json = await run(["compress", join(dir, "in"), "--out", join(dir, "out"), "--json", "--url", api.url]);
      const file = JSON.parse(json.stdout.split("\n")[0]!);
      assert.equal(file.path, join(dir, "in", NAME));
      assert.equal(file.error, `${SERVER_MESSAGE} (415)`);
    });
  } finally {
    await api.close();
  }
});

Deno.test("terminal text: a message that stops the run, and a usage error quoting an argument, are escaped", async () => {
  const api = startFakeApi(() => Response.json({ error: `revoked\x1b[2J\u202e` }, { status: 401 }));
  try {
    await withDir(async (dir) => {
      await Deno.mkdir(join(dir, "in"));
      await Deno.writeFile(join(dir, "in", "a.jpg"), new Uint8Array([0xff, 0xd8, 0xff, 0xe0]));
      const stopped = await run(["compress", join(dir, "in"), "--out", join(dir, "out"), "--url", api.url]);
      assert.equal(stopped.code, 1);
      assert.equal(
        stopped.stderr,
        `The API key was refused (401): revoked\\x1b[2J\\u202e (key ${KEY.slice(0, API_KEY_DISPLAY_LENGTH)}…)\n`,
      );

      const usage = await run(["compress", join(dir, "in\x1b[2J"), "--out", join(dir, "out")]);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /^squeeze: No such file or folder: .*in\\x1b\[2J\n/);
    });
  } finally {
    await api.close();
  }
});

/** The test setup that fails a test on an unexpected console.error, and its opt-in for expected ones. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { expectConsoleError } from "../setup/fail-on-console-error.ts";

Deno.test("expectConsoleError returns the expected lines (and this test passes with them logged)", async () => {
  const { result, lines } = await expectConsoleError(/^boom/, () => {
    console.error("boom", new Error("the cause"));
    return 42;
  });
  assert.equal(result, 42);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^boom Error: the cause/);
});

Deno.test("expectConsoleError waits for a line logged after its function settles", async () => {
  const { lines } = await expectConsoleError(/^late$/, () => void setTimeout(() => console.error("late"), 20));
  assert.deepEqual(lines, ["late"]);
});

Deno.test("expectConsoleError fails when no error is logged, or one that does not match", async () => {
  await assert.rejects(expectConsoleError(/boom/, () => {}, { timeoutMs: 50 }), /waiting for a console\.error line/);
  await assert.rejects(
    expectConsoleError(/boom/, () => console.error("something else")),
    /do not match \/boom\/:\nsomething else/,
  );
});

Deno.test("with the module preloaded, a test that logs an unexpected console.error fails; the others pass", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/logs.test.ts`;
    await Deno.writeTextFile(
      file,
      `Deno.test("quiet", () => {});\n` +
        `Deno.test("noisy", () => { console.error("an error nobody expected"); });\n` +
        `Deno.test("quiet again", () => {});\n`,
    );
    const preload = fileURLToPath(new URL("../setup/fail-on-console-error.ts", import.meta.url));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "-A", "--no-config", "--preload", preload, file],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, text);
    assert.match(text, /Unexpected console\.error during this test[^\n]*\n\s*an error nobody expected/);
    assert.match(text, /\| 2 passed \| 1 failed/);
    assert.match(text, /FAILURES[\s\S]*noisy =>/);
    assert.doesNotMatch(text, /FAILURES[\s\S]*quiet/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Targets as text: the short forms the CLI and API users type, and the JSON the web form sends, converted in one place. */
import assert from "node:assert/strict";
import { settingsFromFields, type Target, targetFromText, targetToText } from "../../contract/settings.ts";

Deno.test("short forms and JSON convert to the same targets, and back", () => {
  const cases: [string, Target][] = [
    ["auto", { kind: "auto" }],
    ["size:200", { kind: "size", kb: 200 }],
    ["score:85", { kind: "quality", score: 85 }],
    ["score:82.5", { kind: "quality", score: 82.5 }],
  ];
  for (const [text, target] of cases) {
    assert.deepEqual(targetFromText(text), target, text);
    assert.equal(targetToText(target), text);
    assert.deepEqual(targetFromText(JSON.stringify(target)), target, "JSON too");
  }
  assert.deepEqual(settingsFromFields({ target: "size:300" }).target, { kind: "size", kb: 300 });
});

Deno.test("what does not convert is handed on for the schema to refuse by name", () => {
  assert.deepEqual(targetFromText("size:abc"), { kind: "size", kb: "abc" });
  assert.equal(targetFromText("auto:1"), "auto:1");
  assert.equal(targetFromText("size"), "size");
  assert.equal(targetFromText("fast"), "fast");
});

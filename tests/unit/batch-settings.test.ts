import assert from "node:assert/strict";
import { batchSettings } from "../../server/services/compression/views.ts";
import { DEFAULT_SETTINGS } from "../../contract/settings.ts";
import type { BatchRow } from "../../db/schema.ts";

const row = (settingsJson: string) => ({ settingsJson }) as BatchRow;

Deno.test("a batch's stored settings are validated on read", () => {
  const settings = { ...DEFAULT_SETTINGS, quality: 70, target: { kind: "auto" as const } };
  assert.deepEqual(batchSettings(row(JSON.stringify(settings))), settings);
  assert.throws(() => batchSettings(row(JSON.stringify({ ...settings, quality: 400 }))), /quality/);
  assert.throws(() => batchSettings(row(JSON.stringify({ ...settings, format: "gif" }))), /format/);
});

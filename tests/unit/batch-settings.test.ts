import assert from "node:assert/strict";
import { batchSettings } from "../../server/services/compression/views.ts";
import {
  compressSettingsOf,
  DEFAULT_SAVED_SETTINGS,
  DEFAULT_SETTINGS,
  savedSettingsSchema,
  settingsFromFields,
  settingsToFields,
} from "../../contract/settings.ts";
import type { BatchRow } from "../../db/schema.ts";

const row = (settingsJson: string) => ({ settingsJson }) as BatchRow;

Deno.test("a batch's stored settings are validated on read; keys added since take their defaults", () => {
  const settings = {
    ...DEFAULT_SAVED_SETTINGS,
    quality: 70,
    priority: "high" as const,
    target: { kind: "auto" as const },
  };
  assert.deepEqual(batchSettings(row(JSON.stringify(settings))), settings);
  // A row from before the batch options (or any later key) joined the JSON reads with their defaults.
  const { priority: _p, maxConcurrent: _m, pauseOnError: _e, ...older } = settings;
  assert.deepEqual(batchSettings(row(JSON.stringify(older))), { ...settings, priority: "normal" });
  assert.throws(() => batchSettings(row(JSON.stringify({ ...settings, quality: 400 }))), /quality/);
  assert.throws(() => batchSettings(row(JSON.stringify({ ...settings, format: "gif" }))), /format/);
});

Deno.test("settings survive the multipart text fields both ways, for every setting", () => {
  const samples = [
    DEFAULT_SAVED_SETTINGS,
    {
      ...DEFAULT_SAVED_SETTINGS,
      quality: 37,
      format: "webp" as const,
      mode: "speed" as const,
      progressive: true,
      mozjpeg: false,
      chromaSubsampling: "4:4:4" as const,
      priority: "low" as const,
      maxConcurrent: 9,
      pauseOnError: true,
      target: { kind: "size" as const, kb: 250 },
      maxWidth: 1280,
      maxHeight: 720,
      fit: "cover" as const,
      widths: [640, 1280],
      formats: ["avif" as const, "webp" as const],
    },
  ];
  for (const s of samples) {
    const back = savedSettingsSchema.parse({ ...DEFAULT_SAVED_SETTINGS, ...settingsFromFields(settingsToFields(s)) });
    assert.deepEqual(back, s);
  }
  // Every key of the shape is sent (target only when set).
  assert.deepEqual(
    Object.keys(settingsToFields(samples[1]!)).sort(),
    Object.keys(DEFAULT_SAVED_SETTINGS).sort(),
  );
});

Deno.test("text that does not convert is kept for the schema to refuse by name", () => {
  const parsed = savedSettingsSchema.safeParse({
    ...DEFAULT_SAVED_SETTINGS,
    ...settingsFromFields({ quality: "high", progressive: "yes", target: "{nope", unknown: "x" }),
  });
  assert.equal(parsed.success, false);
  const messages = parsed.error!.issues.map((i) => i.message);
  assert.ok(messages.includes("quality must be a whole number from 1 to 100"), messages.join("; "));
  assert.ok(messages.includes('progressive must be "true" or "false"'), messages.join("; "));
  assert.ok(messages.some((m) => m.startsWith("target must be JSON")), messages.join("; "));
});

Deno.test("the codecs get the compression part only", () => {
  assert.deepEqual(compressSettingsOf(DEFAULT_SAVED_SETTINGS), DEFAULT_SETTINGS);
});

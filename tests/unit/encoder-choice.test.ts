import assert from "node:assert/strict";
import { DEFAULT_SAVED_SETTINGS, savedSettingsSchema } from "../../contract/settings.ts";
import type { Job } from "../../contract/jobs.ts";
import { compressForm } from "../../web/src/features/compressor/data/upload-images.ts";
import { savableSettings, sendableSettings } from "../../web/src/features/compressor/lib/compress-settings.ts";
import { settingsSummary } from "../../web/src/features/compressor/lib/settings-summary.ts";
import { encodersText } from "../../web/src/lib/review.ts";

const jpegli = { ...DEFAULT_SAVED_SETTINGS, encoder: "jpegli" as const };
const jpegliWebp = { ...jpegli, format: "webp" as const };

Deno.test("the chosen encoder goes to the upload, the saved settings and a re-compression", () => {
  const form = compressForm({ files: [], settings: jpegli, allowTarget: false });
  assert.equal(form.get("encoder"), "jpegli");
  assert.equal(savableSettings(jpegli).encoder, "jpegli");
  assert.equal(sendableSettings(jpegli, false).encoder, "jpegli");
});

Deno.test("jpegli kept in the panel with WebP output reaches the server as mozjpeg, which it accepts", () => {
  assert.equal(compressForm({ files: [], settings: jpegliWebp, allowTarget: false }).get("encoder"), "mozjpeg");
  assert.ok(savedSettingsSchema.safeParse(savableSettings(jpegliWebp)).success);
  assert.ok(savedSettingsSchema.safeParse(sendableSettings(jpegliWebp, true)).success);
  assert.equal(savedSettingsSchema.safeParse(jpegliWebp).success, false, "the server's rule this avoids");
});

Deno.test("the summary names jpegli unless WebP or a score target makes the choice moot", () => {
  assert.equal(settingsSummary(DEFAULT_SAVED_SETTINGS, false), "Quality 80 · JPEG · metadata stripped");
  assert.equal(settingsSummary(jpegli, false), "Quality 80 · JPEG (jpegli) · metadata stripped");
  assert.equal(settingsSummary(jpegliWebp, false), "Quality 80 · WebP · all metadata dropped");
  const auto = { ...jpegli, target: { kind: "auto" as const } };
  assert.equal(settingsSummary(auto, true), "Auto quality · JPEG · metadata stripped");
  assert.equal(settingsSummary(auto, false), "Quality 80 · JPEG (jpegli) · metadata stripped");
  const size = { ...jpegli, target: { kind: "size" as const, kb: 100 } };
  assert.equal(settingsSummary(size, true), "Target 100 KB · JPEG (jpegli) · metadata stripped");
  const avif = { ...DEFAULT_SAVED_SETTINGS, format: "avif" as const };
  assert.equal(settingsSummary(avif, false), "Quality 80 · AVIF · metadata stripped");
  assert.equal(
    settingsSummary({ ...avif, stripMetadata: false }, false),
    "Quality 80 · AVIF · EXIF and colour profile kept",
  );
});

Deno.test("a batch counts the encoders of its completed results", () => {
  const job = (status: Job["status"], encoder: Job["encoder"]) => ({ status, encoder });
  assert.equal(encodersText([job("pending", null), job("completed", null)]), null);
  assert.equal(encodersText([job("completed", "jpegli"), job("processing", null)]), "Encoder: jpegli");
  assert.equal(
    encodersText([
      job("completed", "jpegli"),
      job("completed", "mozjpeg"),
      job("completed", "jpegli"),
      job("completed", "webp"),
    ]),
    "Encoders: MozJPEG 1, jpegli 2, WebP (libwebp) 1",
  );
});

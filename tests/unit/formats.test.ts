/** The format manifest (contract/formats.ts) and what derives from it. */
import assert from "node:assert/strict";
import {
  CODEC_IDS,
  encodedFormat,
  encoderFits,
  encoderFormatError,
  ENCODERS,
  formatOfMimeType,
  FORMATS,
  OUTPUT_FORMATS,
} from "../../contract/formats.ts";
import { codecFor, CODECS, searchCodecs } from "../../codecs/registry.ts";
import { downloadName } from "../../contract/file-names.ts";
import { savedSettingsSchema } from "../../contract/settings.ts";
import { DEFAULT_SAVED_SETTINGS } from "../../contract/settings.ts";
import { outputName } from "../../cli/walk.ts";

Deno.test("every format's encoders are registry codecs that write that format, with its media type", () => {
  for (const format of OUTPUT_FORMATS) {
    // A lossless container (JPEG XL) is written by the encoders of the format it holds.
    const written = encodedFormat(format);
    for (const codec of searchCodecs({ format, formats: [] })) {
      assert.equal(codec.format, written, `${codec.id} writes ${written}`);
      assert.equal(codec.mimeType, FORMATS[written].mimeType);
      assert.equal(codec.extension, FORMATS[written].extension);
      assert.equal(codec.capabilities.metadata, FORMATS[written].metadata, `${codec.id} carries the format's metadata`);
    }
    assert.equal(
      codecFor({ format, formats: [], encoder: ENCODERS[0] }).id,
      FORMATS[format].encoders[0],
      "the default first",
    );
  }
  assert.deepEqual(Object.keys(CODECS).sort(), [...CODEC_IDS].sort(), "one codec per manifest encoder");
});

Deno.test("a media type maps back to its format, parameters and case aside", () => {
  for (const format of OUTPUT_FORMATS) {
    assert.equal(formatOfMimeType(FORMATS[format].mimeType), format);
    assert.equal(formatOfMimeType(`${FORMATS[format].mimeType.toUpperCase()}; q=1`), format);
  }
  assert.equal(formatOfMimeType("text/html"), null);
});

Deno.test("an encoder that does not fit the format is refused by the settings schema with the manifest's words", () => {
  for (const format of OUTPUT_FORMATS) {
    for (const encoder of ENCODERS) {
      const parsed = savedSettingsSchema.safeParse({ ...DEFAULT_SAVED_SETTINGS, format, encoder });
      assert.equal(parsed.success, encoderFits(format, encoder), `${format} + ${encoder}`);
      if (!parsed.success) assert.equal(parsed.error.issues[0]!.message, encoderFormatError(format, encoder));
    }
  }
  assert.equal(encoderFormatError("webp", "jpegli"), "jpegli encodes JPEG only; use encoder=mozjpeg with format=webp");
});

Deno.test("download names and the CLI's output names take the format's extension", () => {
  for (const format of OUTPUT_FORMATS) {
    const extension = FORMATS[format].extension;
    assert.equal(downloadName("Beach.JPEG", format), `Beach.${extension}`);
    assert.equal(outputName("a/beach.jpg", format), format === "jpeg" ? "a/beach.jpg" : `a/beach.${extension}`);
  }
});

Deno.test("a web set's job may take one time limit per two outputs; one output, one limit", async () => {
  const { timeoutScale } = await import("../../server/services/compression/codec-compressor.ts");
  assert.equal(timeoutScale(DEFAULT_SAVED_SETTINGS), 1);
  assert.equal(timeoutScale({ ...DEFAULT_SAVED_SETTINGS, widths: [640, 1280, 1920, 2560] }), 4, "4 × AVIF + JPEG");
  assert.equal(timeoutScale({ ...DEFAULT_SAVED_SETTINGS, widths: [640], formats: ["jpeg"] }), 1);
});

/**
 * format=auto (issue 30, item 4): the smallest file among the allowed formats that meets the score goal,
 * ranked on the mosaic first. The photo here is one whose answer is known by construction: smooth colour
 * fields, where JPEG's 8×8 blocks cost bytes that AVIF's large smooth transforms do not (measured: AVIF
 * about a third of JPEG's bytes at the same SSIMULACRA 2).
 */
import assert from "node:assert/strict";
import { compressImage } from "../../codecs/pipeline/compress.ts";
import { type CompressSettings, DEFAULT_SAVED_SETTINGS, savedSettingsSchema } from "../../contract/settings.ts";
import { AUTO_FORMAT_SIZE_ERROR } from "../../contract/settings.ts";
import { formatChoiceText } from "../../contract/formats.ts";
import { settings, smoothPhoto } from "./helpers.ts";

const run = async (bytes: Uint8Array, overrides: Partial<CompressSettings>) =>
  await compressImage(new AbortController().signal, { bytes, settings: settings(overrides), maxPixels: 50e6 });

Deno.test("format=auto writes the smaller format at the goal, says which won and against what, never larger than JPEG's auto", async () => {
  // 1600×1200: large enough for the mosaic's ranking (the predicted path).
  const bytes = await smoothPhoto(1600, 1200);
  const jpeg = await run(bytes, { format: "jpeg", target: { kind: "auto" } });
  const auto = await run(bytes, { format: "auto", formats: ["avif", "jpeg"], target: null });
  assert.equal(auto.mimeType, "image/avif");
  assert.equal(auto.encoder, "avif");
  assert.ok(auto.compressedSize < jpeg.compressedSize * 0.7, `${auto.compressedSize} vs JPEG ${jpeg.compressedSize}`);
  // Without a target, auto's goal (SSIMULACRA 2 ≥ 80), as the JPEG auto run.
  assert.ok(auto.quality!.ssimulacra2 >= 80, String(auto.quality!.ssimulacra2));
  const choice = auto.formatChoice!;
  assert.equal(choice.format, "avif");
  assert.equal(choice.against, "jpeg");
  // JPEG is searched at full size whenever another format wins on the mosaic: its bytes are JPEG's auto result.
  assert.equal(choice.measured, true, "JPEG, the format auto must not exceed, encoded at full size");
  assert.equal(choice.againstBytes, jpeg.compressedSize);
  assert.ok(auto.timings.proxyProbes > 0, "ranked on the mosaic");
  assert.match(formatChoiceText(choice, auto.compressedSize), /^AVIF chosen: (about )?\d+% smaller than JPEG$/);

  // A quality target is the goal instead; JPEG alone allowed is a JPEG with no choice to report.
  const scored = await run(bytes, {
    format: "auto",
    formats: ["avif", "jpeg"],
    target: { kind: "quality", score: 90 },
  });
  assert.ok(scored.quality!.ssimulacra2 >= 90, String(scored.quality!.ssimulacra2));
  assert.ok(scored.compressedSize > auto.compressedSize, "a higher goal costs bytes");
  const jpegOnly = await run(bytes, { format: "auto", formats: ["jpeg"], target: null });
  assert.equal(jpegOnly.mimeType, "image/jpeg");
  assert.equal(jpegOnly.formatChoice, null);
});

Deno.test("format=auto on a small photo (no mosaic) measures every allowed format and keeps the smallest", async () => {
  const bytes = await smoothPhoto(640, 480);
  const auto = await run(bytes, { format: "auto", formats: ["webp", "jpeg"], target: null });
  const choice = auto.formatChoice!;
  assert.equal(choice.measured, true, "both encoded at full size");
  assert.equal(auto.timings.proxyProbes, 0);
  const other = await run(bytes, { format: choice.against!, target: { kind: "auto" } });
  assert.equal(other.compressedSize, choice.againstBytes, "the loser's bytes are its own auto result");
  assert.ok(auto.compressedSize <= other.compressedSize);
  assert.equal(auto.mimeType, `image/${choice.format}`);
});

Deno.test("format=auto is a settings value: with a size target it is refused with a reason", () => {
  const parse = (patch: Record<string, unknown>) =>
    savedSettingsSchema.safeParse({ ...DEFAULT_SAVED_SETTINGS, ...patch });
  assert.equal(parse({ format: "auto" }).success, true);
  assert.equal(parse({ format: "auto", encoder: "jpegli" }).success, true, "jpegli fits: JPEG may be chosen");
  const sized = parse({ format: "auto", target: { kind: "size", kb: 200 } });
  assert.equal(sized.success, false);
  assert.equal(sized.error!.issues[0]!.message, AUTO_FORMAT_SIZE_ERROR);
  assert.equal(parse({ format: "png" }).success, false);
});

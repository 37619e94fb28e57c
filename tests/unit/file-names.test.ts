import assert from "node:assert/strict";
import {
  distinctEntryNames,
  downloadName,
  MAX_BASE_NAME,
  safeFileName,
  versionName,
} from "../../contract/file-names.ts";

Deno.test("safeFileName keeps ordinary names as they are", () => {
  assert.equal(safeFileName("Holiday photo (1).jpg"), "Holiday photo (1).jpg");
  assert.equal(safeFileName("Café_été.JPEG"), "Café_été.JPEG");
});

Deno.test("safeFileName drops paths, traversal, control and bidirectional characters", () => {
  const cases: [string, string][] = [
    ["../../../../tmp/evil.jpg", "evil.jpg"],
    ["/etc/cron.d/evil.jpg", "evil.jpg"],
    ["C:\\Windows\\evil.jpg", "evil.jpg"],
    ["..", "image"],
    ["a\u0000b\r\nc.jpg", "abc.jpg"],
    ["invoice\u202egpj.exe", "invoicegpj.exe"],
    ["\u2066x\u2069.jpg", "x.jpg"],
    ["  .hidden.jpg  ", "hidden.jpg"],
    ['a<b>:c"d|e?f*.jpg', "a_b__c_d_e_f_.jpg"],
    ["CON.jpg", "_CON.jpg"],
    ["", "image"],
  ];
  for (const [input, expected] of cases) assert.equal(safeFileName(input), expected, JSON.stringify(input));
});

Deno.test("safeFileName caps the length and keeps a short extension", () => {
  const name = safeFileName(`${"a".repeat(7000)}.jpg`);
  assert.equal(name, `${"a".repeat(MAX_BASE_NAME)}.jpg`);
  assert.ok([...safeFileName("😀".repeat(500))].length <= MAX_BASE_NAME + 8);
});

Deno.test("downloadName always carries the output's real extension", () => {
  assert.equal(downloadName("photo.jpeg", "jpeg"), "photo.jpg");
  assert.equal(downloadName("photo.JPG", "webp"), "photo.webp");
  assert.equal(downloadName("page.html", "jpeg"), "page.html.jpg");
  assert.equal(downloadName("../x/.jpg", "jpeg"), "jpg.jpg", "no hidden file");
  assert.equal(downloadName("../..", "webp"), "image.webp");
});

Deno.test("versionName names a version by its settings", () => {
  const base = { format: "jpeg", encoder: "mozjpeg", quality: 70, target: null } as const;
  assert.equal(versionName("beach.jpg", base, "jpeg"), "beach.q70.jpg");
  assert.equal(versionName("beach.JPEG", { ...base, target: { kind: "auto" } }, "jpeg"), "beach.auto.jpg");
  assert.equal(versionName("beach.jpg", { ...base, encoder: "jpegli", quality: 80 }, "jpeg"), "beach.jpegli-q80.jpg");
  assert.equal(versionName("beach.jpg", { ...base, target: { kind: "size", kb: 200 } }, "jpeg"), "beach.size200kb.jpg");
  assert.equal(
    versionName("beach.jpg", { ...base, target: { kind: "quality", score: 85 } }, "jpeg"),
    "beach.score85.jpg",
  );
  assert.equal(versionName("beach.jpg", { ...base, format: "webp" }, "webp"), "beach.q70.webp");
  // A kept original is a JPEG whatever was asked.
  assert.equal(versionName("beach.jpg", { ...base, format: "webp" }, "jpeg"), "beach.q70.jpg");
});

Deno.test("distinctEntryNames never adds (2): versions by number, other uploads by their time", () => {
  const at = (iso: string) => new Date(iso);
  const names = distinctEntryNames([
    { name: "beach.q70.jpg", photo: "p1", uploadedAt: at("2026-11-25T12:10:00Z"), position: 1, version: 3 },
    { name: "beach.q70.jpg", photo: "p1", uploadedAt: at("2026-11-25T12:10:00Z"), position: 1, version: 2 },
    { name: "beach.q70.jpg", photo: "p2", uploadedAt: at("2026-11-25T13:05:09Z"), position: 1, version: 1 },
    { name: "Beach.Q70.jpg", photo: "p3", uploadedAt: at("2026-11-25T13:05:30Z"), position: 1, version: 1 },
    { name: "beach.q70.jpg", photo: "p4", uploadedAt: at("2026-11-25T12:10:00Z"), position: 2, version: 1 },
    { name: "dog.jpg", photo: "p5", uploadedAt: at("2026-11-25T12:00:00Z"), position: 1, version: 1 },
  ]);
  assert.deepEqual(names, [
    "beach.q70.jpg",
    "beach.q70.v2.jpg",
    "beach.q70.uploaded-2026-11-25-1305.jpg",
    "Beach.Q70.uploaded-2026-11-25-130530.jpg",
    "beach.q70.file2.jpg",
    "dog.jpg",
  ]);
  assert.ok(names.every((n) => !n.includes("(")));
});

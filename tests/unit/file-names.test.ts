import assert from "node:assert/strict";
import { downloadName, MAX_BASE_NAME, safeFileName } from "../../contract/file-names.ts";

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

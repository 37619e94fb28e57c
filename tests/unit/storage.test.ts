import assert from "node:assert/strict";
import {
  parseStoreKind,
  retentionPhrase,
  STORE_KINDS,
  STORE_STATEMENTS,
  storeVariantPath,
} from "../../contract/storage.ts";
import { MemoryStore, openStore } from "../../server/store/mod.ts";

Deno.test("parseStoreKind reads the meta tag's content and falls back to memory", () => {
  for (const kind of STORE_KINDS) assert.equal(parseStoreKind(kind), kind);
  for (const other of [null, undefined, "", "S3", "disk", "memory "]) assert.equal(parseStoreKind(other), "memory");
});

Deno.test("storeVariantPath keeps the memory file name and inserts the kind before the extension", () => {
  assert.equal(storeVariantPath("index.html", "memory"), "index.html");
  assert.equal(storeVariantPath("index.html", "file"), "index.file.html");
  assert.equal(storeVariantPath("/privacy/index.html", "s3"), "/privacy/index.s3.html");
  assert.equal(storeVariantPath("/srv/web.dist/shell.html", "s3"), "/srv/web.dist/shell.s3.html");
  assert.throws(() => storeVariantPath("/web.dist/shell", "file"), /no extension/);
});

Deno.test("retentionPhrase words RESULT_TTL_SECONDS in the largest whole unit", () => {
  assert.equal(retentionPhrase(3600), "an hour");
  assert.equal(retentionPhrase(7200), "2 hours");
  assert.equal(retentionPhrase(60), "a minute");
  assert.equal(retentionPhrase(1800), "30 minutes");
  assert.equal(retentionPhrase(1), "a second");
  assert.equal(retentionPhrase(90), "90 seconds");
});

Deno.test("only the memory store's statements say images stay off the disk; the others say they survive a restart", () => {
  for (const kind of STORE_KINDS) {
    const { short, privacyLead, privacy, security } = STORE_STATEMENTS[kind];
    const all = [short, privacyLead, privacy, security].join(" ");
    assert.match(short, /deleted automatically an hour after compression/);
    assert.match(privacy, /deleted automatically an hour after the compression finishes/);
    if (kind === "memory") {
      assert.match(all, /never written to disk/);
      assert.match(privacy, /restart also erases them/);
    } else {
      assert.doesNotMatch(all, /memory|never written to disk|never touch the disk/i);
      assert.match(privacy, /survive a server restart/);
    }
  }
});

Deno.test("each byte store reports the kind its statements are keyed by", () => {
  assert.equal(new MemoryStore().kind, "memory");
  assert.equal(openStore("file:data/never-created").kind, "file");
  const keys = { S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" };
  assert.equal(openStore("s3://bucket?endpoint=http://127.0.0.1:9&region=auto", keys).kind, "s3");
});

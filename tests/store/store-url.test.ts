import assert from "node:assert/strict";
import { EnvError, parseEnv } from "../../server/env.ts";
import { FileStore, MemoryStore, openStore, parseStoreUrl, S3Store, StoreUrlError } from "../../server/store/mod.ts";

const KEYS = { S3_ACCESS_KEY_ID: "AKIAEXAMPLE", S3_SECRET_ACCESS_KEY: "secret" };

Deno.test("STORE_URL defaults to memory and opens each backend by its form", () => {
  assert.ok(openStore(undefined) instanceof MemoryStore);
  assert.ok(openStore("memory:") instanceof MemoryStore);
  const file = openStore("file:data/store");
  assert.ok(file instanceof FileStore);
  assert.match(file.root, /\/data\/store$/);
  assert.equal((openStore("file:///var/lib/squeeze") as FileStore).root, "/var/lib/squeeze");
  const s3 = openStore("s3://squeeze-bytes?endpoint=https://acct.r2.cloudflarestorage.com&region=auto", KEYS);
  assert.ok(s3 instanceof S3Store);
  assert.equal(s3.urlOf("jobs/j/original"), "https://acct.r2.cloudflarestorage.com/squeeze-bytes/jobs/j/original");
  assert.doesNotMatch(s3.description, /secret|AKIA/);
});

Deno.test("an s3 STORE_URL without endpoint goes to AWS in us-east-1 unless a region is given", () => {
  assert.deepEqual(parseStoreUrl("s3://squeeze-bytes", KEYS), {
    kind: "s3",
    bucket: "squeeze-bytes",
    endpoint: undefined,
    region: "us-east-1",
    accessKeyId: "AKIAEXAMPLE",
    secretAccessKey: "secret",
  });
  assert.equal(parseStoreUrl("s3://squeeze-bytes?region=eu-central-1", KEYS).kind, "s3");
});

Deno.test("a bad STORE_URL is refused with every problem listed", () => {
  assert.throws(
    () => parseStoreUrl("s3://Bad_Bucket/some/path?endpoint=ftp://x&colour=red&region=EU WEST"),
    (err: unknown) => {
      assert.ok(err instanceof StoreUrlError);
      assert.equal(err.problems.length, 6, err.message);
      assert.match(err.message, /bucket "Bad_Bucket"/);
      assert.match(err.message, /a path after the bucket/);
      assert.match(err.message, /endpoint must be an http\(s\) URL/);
      assert.match(err.message, /unknown parameter "colour"/);
      assert.match(err.message, /region must look like/);
      assert.match(err.message, /needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
      return true;
    },
  );
  assert.throws(() => parseStoreUrl("redis://x"), /must be memory:, file:DIR or s3:\/\/BUCKET/);
  assert.throws(() => parseStoreUrl("file:"), /file: needs a folder/);
  assert.throws(() => parseStoreUrl("s3://user:pw@bucket", KEYS), /credentials do not go in the URL/);
});

Deno.test("parseEnv reads STORE_URL and refuses an s3 store without its keys, naming them", () => {
  const env = parseEnv({});
  assert.equal(env.STORE_URL, "memory:");
  assert.equal(env.S3_ACCESS_KEY_ID, undefined);
  assert.equal(parseEnv({ STORE_URL: "file:/tmp/squeeze" }).STORE_URL, "file:/tmp/squeeze");
  assert.equal(parseEnv({ STORE_URL: "s3://squeeze-bytes", ...KEYS }).S3_SECRET_ACCESS_KEY, "secret");
  assert.throws(
    () => parseEnv({ STORE_URL: "s3://squeeze-bytes", S3_ACCESS_KEY_ID: "AKIAEXAMPLE" }),
    (err: unknown) => {
      assert.ok(err instanceof EnvError);
      assert.match(err.message, /STORE_URL: an s3:\/\/ store needs S3_SECRET_ACCESS_KEY set/);
      return true;
    },
  );
});

Deno.test("parseEnv lists a bad STORE_URL together with the other bad variables", () => {
  assert.throws(() => parseEnv({ PORT: "eighty", STORE_URL: "s3://x" }), (err: unknown) => {
    assert.ok(err instanceof EnvError);
    assert.match(err.message, /PORT/);
    assert.match(err.message, /STORE_URL: bucket "x"/);
    assert.match(err.message, /STORE_URL: an s3:\/\/ store needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    return true;
  });
});
